// Checked views of chunk payloads: every FlatBuffer passes flatbuffers::Verifier, and every field
// whose value sizes something (page counts, event sizes, enum values) is checked, before any
// caller touches it. Errors are xnt::Error naming the chunk's file offset. Private to format/src.
#pragma once

#include <span>
#include <string>

#include "layout.h"
#include "xnt/format/records.h"
#include "xnt_generated.h"

namespace xnt::format {

// Verifies `raw` (the decoded payload of a chunk of type `type` at `chunk_offset`) as that
// type's root table. Throws when the verifier rejects it or the table breaks a rule of
// schemas/xnt.fbs (e.g. a PageChunk whose data is not hashes * 4096 bytes).
void VerifyChunkPayload(ChunkType type, std::span<const uint8_t> raw, uint64_t chunk_offset);

template <typename T>
const T* ChunkRoot(std::span<const uint8_t> raw) {
  return flatbuffers::GetRoot<T>(raw.data());
}

// Number of 4 KiB pages a memory event of `size` bytes at `address` spans.
inline uint64_t PagesSpanned(uint32_t address, uint64_t size) {
  return size == 0 ? 0 : ((address & (kPageSize - 1)) + size + kPageSize - 1) / kPageSize;
}

// Where a record sits, for messages: "commands chunk at byte offset X, record #k".
std::string RecordWhere(uint64_t chunk_offset, size_t index);

// Checks one record of a verified CommandChunk beyond what the verifier knows (enum ranges,
// page-list length vs size). Returns "" when fine, else the problem.
std::string CheckRecord(fb::RecordBody type, const void* body);

// Conversions of verified, checked records to the public structs (MemoryEvent bytes excluded).
Submission ToSubmission(const fb::Submission& s);
RegisterSnapshot ToRegisterSnapshot(const fb::RegisterSnapshot& r);
GammaRamp ToGammaRamp(const fb::GammaRamp& g);
FrameMarker ToFrameMarker(const fb::FrameMarker& f);
Annotation ToAnnotation(const fb::Annotation& a);

inline PageHash ToPageHash(const fb::PageHash& h) { return {h.lo(), h.hi()}; }

}  // namespace xnt::format
