// Xenotrace records -> Xenia `.xtr` (version 1, today's command numbering, snappy where Xenia's
// TraceWriter compresses), for replay in xenia-gpu-*-trace-dump / trace-viewer.
//
// Mapping: a Submission becomes PrimaryBufferStart (IndirectBufferStart for kIndirectBuffer),
// one PacketStart/PacketEnd per PM4 packet (packet boundaries re-derived from the headers), and
// the matching End. An INDIRECT_BUFFER(_PFD) packet whose target is in guest memory (from earlier
// memory events) gets the IB's packets nested inside it, as Xenia records them. Memory events
// become MemoryRead (kGpuWrite: MemoryWrite, which Xenia's player skips); RegisterSnapshot,
// EdramSnapshot and GammaRamp become their Xenia records; FrameMarker becomes Event(swap).
// Lossy points (reported): the kind of non-GPU-write memory events (.xtr has only "read" and
// "write"), annotations (no .xtr record), TraceInfo fields other than the title id.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "xnt/format/memory_pages.h"
#include "xnt/format/records.h"

namespace xnt::capture {

struct XtrExportReport {
  uint64_t records = 0;
  uint64_t submissions = 0;
  uint64_t packets = 0;
  uint64_t indirect_buffers_nested = 0;
  uint64_t memory_reads = 0;
  uint64_t memory_writes = 0;
  uint64_t memory_kind_changed = 0;  // initial snapshot / CPU write stored as MemoryRead
  uint64_t edram_snapshots = 0;
  uint64_t register_snapshots = 0;
  uint64_t gamma_ramps = 0;
  uint64_t frames = 0;
  uint64_t annotations_dropped = 0;
  uint64_t bytes_written = 0;
  std::vector<std::string> notes;
};

class XtrExporter {
 public:
  // Appends the file to `out`; the caller may drain `out` between Add() calls (streaming).
  XtrExporter(std::vector<uint8_t>& out, uint32_t title_id, const std::string& build_commit = {});
  ~XtrExporter();
  XtrExporter(const XtrExporter&) = delete;
  XtrExporter& operator=(const XtrExporter&) = delete;

  // Throws xnt::Error on a record Xenia cannot represent (wrong EDRAM or gamma size).
  void Add(const format::Record& record);
  // A memory event as the reader's page spans (format::Reader::ForEachRecordPaged).
  void Add(const format::MemoryPages& memory);
  const XtrExportReport& report() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace xnt::capture
