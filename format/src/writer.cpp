// Streaming .xnt writer (writer.h). Records are encoded into FlatBuffers as they arrive; memory
// events are cut along guest 4 KiB page boundaries and each distinct page (by XXH3-128) is stored
// once, in a Pages chunk that always precedes the Commands chunk first referring to it.
#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <unordered_map>

#include "chunk_codec.h"
#include "compress_pool.h"
#include "layout.h"
#include "xnt/base/error.h"
#include "xnt/format/writer.h"
#include "xnt_generated.h"

#ifndef XNT_VERSION
#define XNT_VERSION "0.0.0"
#endif

namespace xnt::format {
namespace {

// A record larger than this cannot share the chunk size limit with its table overhead.
constexpr size_t kMaxRecordBytes = layout::kMaxChunkRawSize - (1u << 20);

class FileWriter final : public Writer {
 public:
  FileWriter(const std::string& path, const TraceInfo& info, const WriterOptions& options)
      : path_(path), options_(options) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw Error("cannot create " + path + ": " + std::strerror(errno));
    layout::FileHeader header;
    header.writer_name = options.writer_name;
    header.writer_version = options.writer_version.empty() ? XNT_VERSION : options.writer_version;
    uint8_t bytes[layout::kFileHeaderSize];
    layout::EncodeFileHeader(header, bytes);
    WriteAll(bytes, sizeof(bytes));

    unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
    pool_ = std::make_unique<CompressPool>(
        threads, options.zstd_level,
        [this](ChunkType type, uint32_t raw_size, std::vector<uint8_t>& encoded) {
          OnChunkEncoded(type, raw_size, encoded);
        });

    flatbuffers::FlatBufferBuilder fbb(256);
    fbb.Finish(fb::CreateTraceInfo(fbb, info.title_id, fbb.CreateString(info.capture_source),
                                   info.creation_time_unix, info.guest_memory_size));
    SubmitChunk(ChunkType::kInfo, fbb);
    frame_first_chunk_.push_back(next_chunk_index_);
  }

  ~FileWriter() override {
    if (fd_ < 0) return;
    try {
      FlushAll();
    } catch (...) {
      // A destructor cannot report; the whole chunks already written stay readable.
    }
    pool_.reset();
    ::close(fd_);
  }

  void Write(const Record& record) override {
    CheckOpen();
    std::visit([this](const auto& r) { Add(r); }, record);
  }

  void WriteMemory(MemoryEventKind kind, uint32_t guest_address,
                   std::span<const uint8_t> bytes) override {
    CheckOpen();
    AddMemory(kind, guest_address, bytes);
  }

  void Finish() override {
    CheckOpen();
    FlushAll();
    // The footer is encoded here, after every other chunk has been written and counted.
    flatbuffers::FlatBufferBuilder fbb(1024 + chunks_.size() * 24 + pages_.size() * 32);
    std::vector<fb::PageLocation> locations;
    locations.reserve(pages_.size());
    for (const auto& [hash, loc] : pages_) {
      locations.emplace_back(fb::PageHash(hash.lo, hash.hi), loc.chunk, loc.slot);
    }
    std::sort(locations.begin(), locations.end(), [](const auto& a, const auto& b) {
      return a.chunk() != b.chunk() ? a.chunk() < b.chunk() : a.slot() < b.slot();
    });
    auto totals = fb::CreateTotals(fbb, totals_.frames, totals_.submissions, totals_.pm4_dwords,
                                   totals_.memory_events, totals_.pages_distinct,
                                   totals_.pages_referenced, totals_.bytes_raw,
                                   totals_.bytes_compressed);
    std::vector<uint32_t> last_use(chunks_.size(), 0);
    std::copy_n(pages_last_use_.begin(), std::min(pages_last_use_.size(), last_use.size()), last_use.begin());
    fbb.Finish(fb::CreateFooter(fbb, fbb.CreateVectorOfStructs(chunks_),
                                fbb.CreateVector(frame_first_chunk_), totals,
                                fbb.CreateVectorOfStructs(locations), fbb.CreateVector(last_use)));
    if (fbb.GetSize() > layout::kMaxChunkRawSize) throw Error("footer exceeds the chunk size limit");
    std::unique_ptr<ZSTD_CCtx, ZstdCCtxDeleter> cctx(ZSTD_createCCtx());
    std::vector<uint8_t> encoded;
    EncodeChunk(ChunkType::kFooter, {fbb.GetBufferPointer(), fbb.GetSize()}, options_.zstd_level,
                cctx.get(), &encoded);
    uint64_t footer_offset = file_offset_;
    WriteAll(encoded.data(), encoded.size());
    uint8_t trailer[layout::kTrailerSize];
    layout::EncodeTrailer(footer_offset, trailer);
    WriteAll(trailer, sizeof(trailer));
    pool_.reset();
    if (::close(fd_) != 0) {
      fd_ = -1;
      throw Error("closing " + path_ + ": " + std::strerror(errno));
    }
    fd_ = -1;
  }

  const TraceTotals& totals() const override { return totals_; }

 private:
  struct PageLoc {
    uint32_t chunk = 0, slot = 0;
    bool stored = false;  // false while the page waits in the pending pages chunk
  };

  void CheckOpen() const {
    if (fd_ < 0) throw Error("writer for " + path_ + " is already finished");
  }

  void WriteAll(const uint8_t* data, size_t size) {
    while (size > 0) {
      ssize_t n = ::write(fd_, data, size);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw Error("writing " + path_ + ": " + std::strerror(errno), file_offset_);
      }
      data += n;
      size -= size_t(n);
      file_offset_ += uint64_t(n);
    }
  }

  void OnChunkEncoded(ChunkType type, uint32_t raw_size, std::vector<uint8_t>& encoded) {
    uint64_t offset = file_offset_;
    WriteAll(encoded.data(), encoded.size());
    uint32_t stored = uint32_t(encoded.size() - layout::kChunkHeaderSize);
    chunks_.emplace_back(offset, stored, raw_size, static_cast<uint8_t>(type), encoded[5]);
    totals_.bytes_raw += raw_size;
    totals_.bytes_compressed += stored;
  }

  void SubmitChunk(ChunkType type, flatbuffers::FlatBufferBuilder& fbb) {
    const uint8_t* p = fbb.GetBufferPointer();
    pool_->Submit(type, std::vector<uint8_t>(p, p + fbb.GetSize()));
    ++next_chunk_index_;
  }

  // --- Pages
  void AddPage(const uint8_t* page) {
    XXH128_hash_t h = XXH3_128bits(page, kPageSize);
    PageHash hash{h.low64, h.high64};
    event_pages_.emplace_back(hash.lo, hash.hi);
    ++totals_.pages_referenced;
    auto [it, inserted] = pages_.try_emplace(hash);
    if (!inserted) {
      // Pages still pending reach the open commands chunk through FlushPages.
      if (it->second.stored) NotePagesUse(it->second.chunk);
      return;
    }
    ++totals_.pages_distinct;
    it->second.slot = uint32_t(pending_hashes_.size());
    pending_hashes_.push_back(hash);
    pending_page_data_.insert(pending_page_data_.end(), page, page + kPageSize);
    if (pending_page_data_.size() >= options_.chunk_target_bytes) FlushPages();
  }

  void FlushPages() {
    if (pending_hashes_.empty()) return;
    uint32_t chunk = next_chunk_index_;
    flatbuffers::FlatBufferBuilder fbb(pending_page_data_.size() + pending_hashes_.size() * 16 + 256);
    std::vector<fb::PageHash> hashes;
    hashes.reserve(pending_hashes_.size());
    for (const PageHash& h : pending_hashes_) {
      hashes.emplace_back(h.lo, h.hi);
      PageLoc& loc = pages_[h];
      loc.chunk = chunk;
      loc.stored = true;
    }
    // Pages are only added by memory events, which go into the open commands chunk.
    NotePagesUse(chunk);
    auto hv = fbb.CreateVectorOfStructs(hashes);
    auto dv = fbb.CreateVector(pending_page_data_);
    fbb.Finish(fb::CreatePageChunk(fbb, hv, dv));
    SubmitChunk(ChunkType::kPages, fbb);
    pending_hashes_.clear();
    pending_page_data_.clear();
  }

  // --- Commands
  void BeginRecord() {
    if (record_types_.empty()) cmd_first_frame_ = uint32_t(totals_.frames);
  }
  void EndRecord(fb::RecordBody type, flatbuffers::Offset<void> body) {
    record_types_.push_back(static_cast<uint8_t>(type));
    record_bodies_.push_back(body);
    if (cmd_.GetSize() >= options_.chunk_target_bytes) FlushCommands();
  }
  void FlushCommands() {
    // Pages first: a reader must have seen every page before the event that names it.
    FlushPages();
    if (record_types_.empty()) return;
    auto types = cmd_.CreateVector(record_types_);
    auto bodies = cmd_.CreateVector(record_bodies_);
    fb::CommandChunkBuilder b(cmd_);
    b.add_first_frame(cmd_first_frame_);
    b.add_records_type(types);
    b.add_records(bodies);
    cmd_.Finish(b.Finish());
    SubmitChunk(ChunkType::kCommands, cmd_);
    const uint32_t commands_chunk = next_chunk_index_ - 1;
    for (uint32_t c : open_page_uses_) {
      if (pages_last_use_.size() <= c) pages_last_use_.resize(size_t(c) + 1, 0);
      pages_last_use_[c] = commands_chunk;
    }
    open_page_uses_.clear();
    cmd_.Clear();
    record_types_.clear();
    record_bodies_.clear();
  }
  // Pages chunk `chunk` is named by a memory event of the open commands chunk (footer
  // pages_last_use).
  void NotePagesUse(uint32_t chunk) {
    if (open_page_uses_.empty() || open_page_uses_.back() != chunk) open_page_uses_.push_back(chunk);
  }
  void FlushAll() {
    FlushCommands();
    pool_->Drain();
  }
  void CheckSize(size_t bytes, const char* what) {
    if (bytes > kMaxRecordBytes) {
      throw Error(std::string(what) + " of " + std::to_string(bytes) +
                  " bytes is larger than one chunk can hold");
    }
  }

  void Add(const Submission& s) {
    CheckSize(s.dwords.size() * 4, "submission");
    BeginRecord();
    auto dw = cmd_.CreateVector(s.dwords);
    auto off = fb::CreateSubmission(cmd_, static_cast<uint8_t>(s.kind), s.guest_address, dw);
    ++totals_.submissions;
    totals_.pm4_dwords += s.dwords.size();
    EndRecord(fb::RecordBody_Submission, off.Union());
  }

  void Add(const MemoryEvent& m) { AddMemory(m.kind, m.guest_address, m.bytes); }

  void AddMemory(MemoryEventKind kind, uint32_t address, std::span<const uint8_t> bytes) {
    if (uint64_t(address) + bytes.size() > (uint64_t(1) << 32)) {
      throw Error("memory event at guest address " + std::to_string(address) + " of " +
                  std::to_string(bytes.size()) + " bytes runs past the 32-bit guest address space");
    }
    if (bytes.size() > kGuestPhysicalSize) {
      throw Error("memory event of " + std::to_string(bytes.size()) +
                  " bytes is larger than guest physical memory");
    }
    CheckSize(bytes.size() / kPageSize * 16, "memory event page list");
    event_pages_.clear();
    const uint32_t first_offset = address & (kPageSize - 1);
    size_t pos = 0;
    uint32_t in_page = first_offset;
    while (pos < bytes.size()) {
      size_t n = std::min<size_t>(kPageSize - in_page, bytes.size() - pos);
      if (n == kPageSize) {
        AddPage(bytes.data() + pos);
      } else {
        // Partial page: the bytes outside the event are zero (schemas/xnt.fbs MemoryEvent).
        std::memset(scratch_page_, 0, kPageSize);
        std::memcpy(scratch_page_ + in_page, bytes.data() + pos, n);
        AddPage(scratch_page_);
      }
      pos += n;
      in_page = 0;
    }
    BeginRecord();
    auto pv = cmd_.CreateVectorOfStructs(event_pages_);
    auto off = fb::CreateMemoryEvent(cmd_, static_cast<uint8_t>(kind), address,
                                     uint32_t(bytes.size()), pv);
    ++totals_.memory_events;
    EndRecord(fb::RecordBody_MemoryEvent, off.Union());
  }

  void Add(const RegisterSnapshot& r) {
    CheckSize(r.values.size() * 4, "register snapshot");
    BeginRecord();
    auto v = cmd_.CreateVector(r.values);
    EndRecord(fb::RecordBody_RegisterSnapshot,
              fb::CreateRegisterSnapshot(cmd_, r.first_register, v).Union());
  }

  void Add(const EdramSnapshot& e) {
    CheckSize(e.bytes.size(), "EDRAM snapshot");
    FlushCommands();  // stream order: everything before the snapshot goes first
    flatbuffers::FlatBufferBuilder fbb(e.bytes.size() + 64);
    fbb.Finish(fb::CreateEdramChunk(fbb, fbb.CreateVector(e.bytes)));
    SubmitChunk(ChunkType::kEdram, fbb);
  }

  void Add(const GammaRamp& g) {
    CheckSize((g.table.size() + g.pwl.size()) * 4, "gamma ramp");
    BeginRecord();
    auto t = cmd_.CreateVector(g.table);
    auto p = cmd_.CreateVector(g.pwl);
    EndRecord(fb::RecordBody_GammaRamp, fb::CreateGammaRamp(cmd_, t, p, g.rw_component).Union());
  }

  void Add(const FrameMarker& f) {
    BeginRecord();
    auto off = fb::CreateFrameMarker(cmd_, uint32_t(totals_.frames), f.front_buffer_address,
                                     f.width, f.height, f.format);
    ++totals_.frames;
    EndRecord(fb::RecordBody_FrameMarker, off.Union());
    // A frame's records are complete on disk once its marker is written: a capture killed in
    // the next frame loses only that frame.
    FlushAll();
    frame_first_chunk_.push_back(next_chunk_index_);
  }

  void Add(const Annotation& a) {
    CheckSize(a.label.size() + a.text.size(), "annotation");
    BeginRecord();
    auto l = cmd_.CreateString(a.label);
    auto t = cmd_.CreateString(a.text);
    EndRecord(fb::RecordBody_Annotation, fb::CreateAnnotation(cmd_, l, t).Union());
  }

  std::string path_;
  WriterOptions options_;
  int fd_ = -1;
  uint64_t file_offset_ = 0;
  std::unique_ptr<CompressPool> pool_;
  uint32_t next_chunk_index_ = 0;
  std::vector<fb::ChunkRef> chunks_;
  std::vector<uint32_t> frame_first_chunk_;
  TraceTotals totals_;

  std::unordered_map<PageHash, PageLoc, PageHashHasher> pages_;
  std::vector<PageHash> pending_hashes_;
  std::vector<uint8_t> pending_page_data_;
  std::vector<fb::PageHash> event_pages_;
  uint8_t scratch_page_[kPageSize];
  // Footer pages_last_use: per chunk index, the last commands chunk naming a page of it; and the
  // pages chunks named by the commands chunk being built.
  std::vector<uint32_t> pages_last_use_;
  std::vector<uint32_t> open_page_uses_;

  flatbuffers::FlatBufferBuilder cmd_{1u << 16};
  std::vector<uint8_t> record_types_;
  std::vector<flatbuffers::Offset<void>> record_bodies_;
  uint32_t cmd_first_frame_ = 0;
};

}  // namespace

std::unique_ptr<Writer> Writer::Create(const std::string& path, const TraceInfo& info,
                                       const WriterOptions& options) {
  if (options.zstd_level < 0 || options.zstd_level > ZSTD_maxCLevel()) {
    throw Error("zstd level " + std::to_string(options.zstd_level) + " is outside 0.." +
                std::to_string(ZSTD_maxCLevel()));
  }
  if (options.chunk_target_bytes < kPageSize || options.chunk_target_bytes > (64u << 20)) {
    throw Error("chunk target size must be between 4 KiB and 64 MiB");
  }
  return std::make_unique<FileWriter>(path, info, options);
}

}  // namespace xnt::format
