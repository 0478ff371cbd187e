// Checked views of chunk payloads (chunk_parse.h).
#include "chunk_parse.h"

#include <cstdint>

#include "xnt/base/error.h"

namespace xnt::format {
namespace {

template <typename T>
bool VerifyAs(std::span<const uint8_t> raw) {
  // Every table is at least 4 bytes, so raw/4 bounds the table count of an honest buffer.
  flatbuffers::Verifier::Options opts;
  opts.max_depth = layout::kVerifierMaxDepth;
  opts.max_tables = static_cast<flatbuffers::uoffset_t>(raw.size() / 4 + 16);
  opts.check_alignment = true;
  flatbuffers::Verifier v(raw.data(), raw.size(), opts);
  return v.VerifyBuffer<T>(nullptr);
}

template <typename T>
std::vector<T> CopyVector(const flatbuffers::Vector<T>* v) {
  if (!v) return {};
  return std::vector<T>(v->data(), v->data() + v->size());
}

std::string Str(const flatbuffers::String* s) { return s ? s->str() : std::string(); }

// The FlatBuffers verifier (2.0) checks a struct vector's length word but not that its elements
// sit at the struct's own alignment (8 for PageHash, ChunkRef, PageLocation). A writer always
// aligns them, so a misaligned one is corruption, and reading it would be undefined behaviour
// (found by fuzzing the reader: a footer whose page index sat at 4 mod 8).
// Checked relative to the payload's start, which is where the writer aligned them.
template <typename T>
bool StructsAligned(const flatbuffers::Vector<const T*>* v, std::span<const uint8_t> raw) {
  return !v || uintptr_t(v->Data() - raw.data()) % alignof(T) == 0;
}

}  // namespace

std::string RecordWhere(uint64_t chunk_offset, size_t index) {
  return "commands chunk at byte offset " + std::to_string(chunk_offset) + ", record #" +
         std::to_string(index);
}

void VerifyChunkPayload(ChunkType type, std::span<const uint8_t> raw, uint64_t chunk_offset) {
  // Payload alignment matters to the verifier; callers hand 8-byte aligned buffers.
  bool ok = false;
  switch (type) {
    case ChunkType::kInfo: ok = VerifyAs<fb::TraceInfo>(raw); break;
    case ChunkType::kCommands: ok = VerifyAs<fb::CommandChunk>(raw); break;
    case ChunkType::kPages: ok = VerifyAs<fb::PageChunk>(raw); break;
    case ChunkType::kEdram: ok = VerifyAs<fb::EdramChunk>(raw); break;
    case ChunkType::kFooter: ok = VerifyAs<fb::Footer>(raw); break;
  }
  if (!ok) {
    throw Error(std::string(ChunkTypeName(type)) + " chunk: FlatBuffers verifier rejected the payload",
                chunk_offset);
  }
  bool aligned = true;
  if (type == ChunkType::kFooter) {
    const auto* f = ChunkRoot<fb::Footer>(raw);
    aligned = StructsAligned(f->chunks(), raw) && StructsAligned(f->pages(), raw);
  } else if (type == ChunkType::kPages) {
    aligned = StructsAligned(ChunkRoot<fb::PageChunk>(raw)->hashes(), raw);
  }
  if (!aligned) {
    throw Error(std::string(ChunkTypeName(type)) + " chunk: a struct vector is misaligned",
                chunk_offset);
  }
  if (type == ChunkType::kPages) {
    const auto* p = ChunkRoot<fb::PageChunk>(raw);
    uint64_t hashes = p->hashes() ? p->hashes()->size() : 0;
    uint64_t data = p->data() ? p->data()->size() : 0;
    if (data != hashes * kPageSize) {
      throw Error("pages chunk: " + std::to_string(hashes) + " hashes but " +
                      std::to_string(data) + " data bytes (expected hashes * 4096)",
                  chunk_offset);
    }
  }
  if (type == ChunkType::kInfo) {
    const auto* i = ChunkRoot<fb::TraceInfo>(raw);
    if (i->guest_memory_size() > (uint64_t(1) << 32)) {
      throw Error("info chunk: guest memory size " + std::to_string(i->guest_memory_size()) +
                      " exceeds the 32-bit guest address space",
                  chunk_offset);
    }
  }
}

std::string CheckRecord(fb::RecordBody type, const void* body) {
  switch (type) {
    case fb::RecordBody_Submission: {
      auto* s = static_cast<const fb::Submission*>(body);
      if (s->kind() > uint8_t(SubmissionKind::kIndirectBuffer)) {
        return "unknown submission kind " + std::to_string(s->kind());
      }
      return {};
    }
    case fb::RecordBody_MemoryEvent: {
      auto* m = static_cast<const fb::MemoryEvent*>(body);
      if (m->kind() > uint8_t(MemoryEventKind::kGpuWrite)) {
        return "unknown memory event kind " + std::to_string(m->kind());
      }
      if (m->size() > kGuestPhysicalSize) {
        return "memory event size " + std::to_string(m->size()) + " exceeds guest memory";
      }
      if (uint64_t(m->guest_address()) + m->size() > (uint64_t(1) << 32)) {
        return "memory event runs past the 32-bit guest address space";
      }
      uint64_t want = PagesSpanned(m->guest_address(), m->size());
      uint64_t have = m->pages() ? m->pages()->size() : 0;
      if (want != have) {
        return "memory event of " + std::to_string(m->size()) + " bytes names " +
               std::to_string(have) + " pages, expected " + std::to_string(want);
      }
      return {};
    }
    case fb::RecordBody_RegisterSnapshot:
    case fb::RecordBody_GammaRamp:
    case fb::RecordBody_FrameMarker:
    case fb::RecordBody_Annotation:
      return {};
    case fb::RecordBody_NONE:
      return "record with no type";
  }
  return "unknown record type " + std::to_string(int(type)) + " (written by a newer format minor?)";
}

Submission ToSubmission(const fb::Submission& s) {
  return {static_cast<SubmissionKind>(s.kind()), s.guest_address(), CopyVector(s.dwords())};
}
RegisterSnapshot ToRegisterSnapshot(const fb::RegisterSnapshot& r) {
  return {r.first_register(), CopyVector(r.values())};
}
GammaRamp ToGammaRamp(const fb::GammaRamp& g) {
  return {CopyVector(g.table()), CopyVector(g.pwl()), g.rw_component()};
}
FrameMarker ToFrameMarker(const fb::FrameMarker& f) {
  return {f.frame_index(), f.front_buffer_address(), f.width(), f.height(), f.format()};
}
Annotation ToAnnotation(const fb::Annotation& a) { return {Str(a.label()), Str(a.text())}; }

}  // namespace xnt::format
