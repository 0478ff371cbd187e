// .xnt reader (reader.h). Open() trusts nothing: the footer is used only when the trailer, its
// chunk header, checksum, FlatBuffer and every chunk header it lists agree; otherwise the chunks
// are found by scanning from the start, stopping at the first damaged or incomplete one.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "chunk_codec.h"
#include "chunk_parse.h"
#include "layout.h"
#include "page_table.h"
#include "prefetcher.h"
#include "xnt/base/error.h"
#include "xnt/format/reader.h"

namespace xnt::format {

// Fills the MemoryPages view the reader hands to a memory callback, and retires it afterwards.
struct MemoryPagesFill {
  static void Set(MemoryPages& view, MemoryEventKind kind, uint32_t guest_address, uint32_t size,
                  std::span<const std::span<const uint8_t>> runs) {
    view.kind_ = kind;
    view.guest_address_ = guest_address;
    view.size_ = size;
    view.runs_ = runs;
  }
  static void SetLive(MemoryPages& view, bool live) { view.live_ = live; }
};

namespace {

// Decoded Pages chunks kept for page lookups; least recently used ones go first.
constexpr uint64_t kPageCacheBudget = 256ull << 20;
// Validate stops listing after this many problems (a badly damaged file would list thousands).
constexpr size_t kMaxProblems = 200;
// Files up to this size are read rather than mapped (ReaderImpl::ReadWhole).
constexpr uint64_t kReadWholeFileLimit = 256u << 10;
// Idle decompression buffers kept for reuse.
constexpr uint64_t kFreeBufferBudget = 64ull << 20;

using PageIndex = PageTable;

std::string HashText(const PageHash& h) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%016llx%016llx", (unsigned long long)h.hi, (unsigned long long)h.lo);
  return buf;
}

// What a pass over the chunks learns: totals, the frame index and where each page is. Used by
// the recovery scan (which rebuilds the footer's content) and by Validate (which compares).
struct Tally {
  TraceTotals totals;
  std::vector<uint32_t> frame_first_chunk;
  PageIndex pages;
  std::vector<uint32_t> pages_last_use;  // per chunk: the last commands chunk naming one of its pages
  std::vector<std::string>* problems = nullptr;  // null: stop at the first problem (throw)
  bool check_page_content = false;

  void Problem(const std::string& what, uint64_t offset) {
    if (!problems) throw Error(what, offset);
    if (problems->size() < kMaxProblems) {
      problems->push_back("at byte offset " + std::to_string(offset) + ": " + what);
    }
  }

  void Add(const ChunkSummary& c, uint32_t index, std::span<const uint8_t> raw) {
    totals.bytes_raw += c.raw_size;
    totals.bytes_compressed += c.stored_size;
    if (index == 0 && c.type != ChunkType::kInfo) Problem("first chunk is not the info chunk", c.file_offset);
    if (frame_first_chunk.empty()) frame_first_chunk.push_back(1);
    switch (c.type) {
      case ChunkType::kInfo:
        if (index != 0) Problem("info chunk after the first chunk", c.file_offset);
        break;
      case ChunkType::kPages: AddPages(c, index, raw); break;
      case ChunkType::kCommands: AddCommands(c, index, raw); break;
      case ChunkType::kEdram:
      case ChunkType::kFooter: break;
    }
  }

  void AddPages(const ChunkSummary& c, uint32_t index, std::span<const uint8_t> raw) {
    const auto* p = ChunkRoot<fb::PageChunk>(raw);
    if (!p->hashes()) return;
    const uint8_t* data = p->data() ? p->data()->data() : nullptr;
    for (uint32_t slot = 0; slot < p->hashes()->size(); ++slot) {
      PageHash h = ToPageHash(*p->hashes()->Get(slot));
      if (check_page_content) {
        XXH128_hash_t actual = XXH3_128bits(data + uint64_t(slot) * kPageSize, kPageSize);
        if (actual.low64 != h.lo || actual.high64 != h.hi) {
          Problem("pages chunk: page #" + std::to_string(slot) + " does not hash to its key " + HashText(h),
                  c.file_offset);
        }
      }
      if (!pages.try_emplace(h, PageLoc{index, slot})) {
        Problem("pages chunk: page " + HashText(h) + " is stored twice", c.file_offset);
      }
      ++totals.pages_distinct;
    }
  }

  void AddCommands(const ChunkSummary& c, uint32_t index, std::span<const uint8_t> raw) {
    const auto* cmd = ChunkRoot<fb::CommandChunk>(raw);
    if (cmd->first_frame() != totals.frames) {
      Problem("commands chunk says it starts in frame " + std::to_string(cmd->first_frame()) +
                  ", but " + std::to_string(totals.frames) + " frames precede it",
              c.file_offset);
    }
    if (!cmd->records()) return;
    const auto* types = cmd->records_type();
    for (uint32_t i = 0; i < cmd->records()->size(); ++i) {
      auto type = static_cast<fb::RecordBody>(types->Get(i));
      const void* body = cmd->records()->Get(i);
      std::string bad = CheckRecord(type, body);
      if (!bad.empty()) {
        Problem(RecordWhere(c.file_offset, i) + ": " + bad, c.file_offset);
        continue;
      }
      switch (type) {
        case fb::RecordBody_Submission: {
          auto* s = static_cast<const fb::Submission*>(body);
          ++totals.submissions;
          totals.pm4_dwords += s->dwords() ? s->dwords()->size() : 0;
          break;
        }
        case fb::RecordBody_MemoryEvent: {
          auto* m = static_cast<const fb::MemoryEvent*>(body);
          ++totals.memory_events;
          if (!m->pages()) break;
          totals.pages_referenced += m->pages()->size();
          for (const fb::PageHash* h : *m->pages()) {
            const PageLoc* loc = pages.find(ToPageHash(*h));
            if (!loc) {
              Problem(RecordWhere(c.file_offset, i) + ": memory event names page " +
                          HashText(ToPageHash(*h)) + ", which no earlier pages chunk holds",
                      c.file_offset);
              break;
            }
            if (pages_last_use.size() <= loc->chunk) pages_last_use.resize(size_t(loc->chunk) + 1, 0);
            pages_last_use[loc->chunk] = index;
          }
          break;
        }
        case fb::RecordBody_FrameMarker: {
          auto* f = static_cast<const fb::FrameMarker*>(body);
          if (f->frame_index() != totals.frames) {
            Problem(RecordWhere(c.file_offset, i) + ": frame marker " + std::to_string(f->frame_index()) +
                        " where frame " + std::to_string(totals.frames) + " ends",
                    c.file_offset);
          }
          ++totals.frames;
          frame_first_chunk.push_back(index + 1);
          break;
        }
        default: break;
      }
    }
  }
};

class ReaderImpl final : public Reader {
 public:
  ReaderImpl(const ReaderOptions& options) : options_(options) {
    threads_ = options.threads ? options.threads : std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
  }
  ~ReaderImpl() override {
    if (map_) ::munmap(map_, map_size_);
  }

  void MapFile(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error("cannot open " + path + ": " + std::strerror(errno));
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      throw Error(path + " is not a regular file");
    }
    size_ = uint64_t(st.st_size);
    if (size_ > 0 && size_ <= kReadWholeFileLimit) {
      ReadWhole(fd, path);
      ::close(fd);
      return;
    }
    if (size_ > 0) {
      map_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (map_ == MAP_FAILED) {
        map_ = nullptr;
        ::close(fd);
        throw Error("cannot map " + path + ": " + std::strerror(errno));
      }
      map_size_ = size_;
      data_ = static_cast<const uint8_t*>(map_);
    }
    ::close(fd);
  }

  // Small files are read into memory: mapping one costs more than its bytes do (mmap, a fault per
  // 16 pages, munmap and its TLB flush were about a quarter of opening and reading a sample trace).
  // A file that shrinks meanwhile yields what was read, which the footer checks then judge.
  void ReadWhole(int fd, const std::string& path) {
    owned_.resize(size_);
    size_t got = 0;
    while (got < owned_.size()) {
      ssize_t n = ::read(fd, owned_.data() + got, owned_.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const int err = errno;
        ::close(fd);
        throw Error("cannot read " + path + ": " + std::strerror(err));
      }
      if (n == 0) break;
      got += size_t(n);
    }
    owned_.resize(got);
    size_ = got;
    data_ = owned_.data();
  }

  void UseMemory(std::span<const uint8_t> bytes) {
    owned_.assign(bytes.begin(), bytes.end());
    data_ = owned_.data();
    size_ = owned_.size();
  }

  void Index() {
    static const uint8_t kEmpty[1] = {0};
    if (!data_) data_ = kEmpty;
    layout::FileHeader header = layout::DecodeFileHeader(data_, size_);
    info_.writer_name = header.writer_name;
    info_.writer_version = header.writer_version;
    info_.format_major = header.major;
    info_.format_minor = header.minor;

    std::string footer_problem;
    try {
      LoadFooter();
    } catch (const Error& e) {
      footer_problem = e.what();
    }
    if (!footer_problem.empty()) {
      if (!options_.allow_recovery) throw Error("no usable footer (" + footer_problem + ")");
      chunks_.clear();
      footer_pages_ = nullptr;
      Scan(footer_problem);
    }
    if (chunks_.empty() && recovered_) {
      throw Error("no whole chunk in the file: " + scan_stop_reason_, scan_stop_offset_);
    }
    if (chunks_.empty() || chunks_[0].type != ChunkType::kInfo) {
      throw Error("no trace info chunk at the start of the file", layout::kFileHeaderSize);
    }
    PooledDCtx dctx = AcquireDCtx();
    auto info_chunk = DecodeOrThrow(0, dctx.get());
    const auto* ti = ChunkRoot<fb::TraceInfo>(info_chunk->raw);
    info_.title_id = ti->title_id();
    info_.capture_source = ti->capture_source() ? ti->capture_source()->str() : "";
    info_.creation_time_unix = ti->creation_time_unix();
    info_.guest_memory_size = ti->guest_memory_size();
  }

  // --- Reader
  const TraceInfo& info() const override { return info_; }
  bool recovered() const override { return recovered_; }
  const std::string& recovery_note() const override { return recovery_note_; }
  uint64_t frame_count() const override { return totals_.frames; }
  const TraceTotals& totals() const override { return totals_; }
  const std::vector<ChunkSummary>& chunks() const override { return chunks_; }
  uint64_t file_size() const override { return size_; }
  std::optional<ChunkSummary> footer() const override { return footer_summary_; }

  void ForEachRecordPaged(const RecordCallback& callback, const MemoryCallback& memory, uint64_t first_frame,
                          std::optional<uint64_t> last_frame) override {
    RequireCallbacks(callback, memory);
    if (first_frame > totals_.frames) {
      throw Error("frame " + std::to_string(first_frame) + " is past the end of the trace (" +
                  std::to_string(totals_.frames) + " frames)");
    }
    if (last_frame && *last_frame < first_frame) {
      throw Error("last frame " + std::to_string(*last_frame) + " is before first frame " +
                  std::to_string(first_frame));
    }
    uint32_t begin = first_frame == 0 ? 0 : FrameFirstChunk(first_frame);
    Walk(begin, uint32_t(chunks_.size()), callback, memory, last_frame, false);
  }

  void ForEachStateRecordBeforePaged(const RecordCallback& callback, const MemoryCallback& memory,
                                     uint64_t frame) override {
    RequireCallbacks(callback, memory);
    if (frame > totals_.frames) {
      throw Error("frame " + std::to_string(frame) + " is past the end of the trace (" +
                  std::to_string(totals_.frames) + " frames)");
    }
    if (frame == 0) return;
    Walk(0, FrameFirstChunk(frame), callback, memory, std::nullopt, true);
  }

  static void RequireCallbacks(const RecordCallback& callback, const MemoryCallback& memory) {
    if (!callback || !memory) throw Error("a record stream needs both a record and a memory callback");
  }

  // The first chunk of `frame` from the frame index, checked against the chunks actually read: a
  // recovered (scanned) trace's tally may count frames past the last whole chunk.
  uint32_t FrameFirstChunk(uint64_t frame) const {
    if (frame >= frame_first_chunk_.size() || frame_first_chunk_[frame] > chunks_.size()) {
      throw Error("frame " + std::to_string(frame) + " starts past the " +
                  std::to_string(chunks_.size()) + " readable chunks (the trace was cut short)");
    }
    return frame_first_chunk_[frame];
  }

  std::vector<uint8_t> ReadChunkRaw(size_t index) override {
    if (index >= chunks_.size()) throw Error("chunk index " + std::to_string(index) + " out of range");
    PooledDCtx dctx = AcquireDCtx();
    auto c = DecodeOrThrow(uint32_t(index), dctx.get());
    return std::vector<uint8_t>(c->raw.begin(), c->raw.end());
  }

  std::vector<std::string> Validate() override {
    std::vector<std::string> problems;
    if (recovered_) problems.push_back("file has no valid footer: " + recovery_note_);
    Tally tally;
    tally.problems = &problems;
    tally.check_page_content = true;
    std::vector<PooledDCtx> dctxs;
    Prefetcher prefetch(0, uint32_t(chunks_.size()), threads_, MakeDecodeFn(dctxs));
    for (uint32_t i = 0; i < chunks_.size(); ++i) {
      auto c = prefetch.Get(i);
      if (c->error) {
        try {
          std::rethrow_exception(c->error);
        } catch (const Error& e) {
          if (problems.size() < kMaxProblems) problems.push_back(e.what());
        }
        // Count the sizes anyway so that the footer comparison below reports only real mismatches.
        tally.totals.bytes_raw += chunks_[i].raw_size;
        tally.totals.bytes_compressed += chunks_[i].stored_size;
        continue;
      }
      tally.Add(chunks_[i], i, c->raw);
    }
    if (!recovered_) CompareFooter(tally, &problems);
    return problems;
  }

 private:
  // --- Opening
  void LoadFooter() {
    if (size_ < layout::kFileHeaderSize + layout::kChunkHeaderSize + layout::kTrailerSize) {
      throw Error("file too short to hold a footer and trailer", size_);
    }
    const uint64_t trailer_at = size_ - layout::kTrailerSize;
    auto footer_at = layout::DecodeTrailer(data_ + trailer_at);
    if (!footer_at) throw Error("no valid trailer at the end of the file", trailer_at);
    // Written so that no sum can wrap: the offset comes from the file.
    if (*footer_at < layout::kFileHeaderSize || *footer_at > trailer_at ||
        trailer_at - *footer_at < layout::kChunkHeaderSize) {
      throw Error("trailer points outside the file", trailer_at);
    }
    layout::ChunkHeader h;
    std::string bad = layout::CheckChunkHeader(data_ + *footer_at,
                                               trailer_at - *footer_at - layout::kChunkHeaderSize, &h);
    if (!bad.empty()) throw Error("footer chunk: " + bad, *footer_at);
    if (h.type != ChunkType::kFooter) throw Error("trailer does not point at a footer chunk", *footer_at);
    if (*footer_at + layout::kChunkHeaderSize + h.stored_size != trailer_at) {
      throw Error("footer chunk does not end at the trailer", *footer_at);
    }
    PooledDCtx dctx = AcquireDCtx();
    auto raw = DecodeAt(h, *footer_at, dctx.get(), &footer_storage_);
    VerifyChunkPayload(ChunkType::kFooter, raw, *footer_at);
    const auto* f = ChunkRoot<fb::Footer>(raw);
    if (!f->chunks() || !f->frame_first_chunk() || !f->totals()) {
      throw Error("footer lacks its chunk list, frame index or totals", *footer_at);
    }
    // Every listed chunk must tile the file exactly, header to footer, and agree with its header.
    uint64_t expect = layout::kFileHeaderSize;
    for (uint32_t i = 0; i < f->chunks()->size(); ++i) {
      const fb::ChunkRef* ref = f->chunks()->Get(i);
      if (ref->offset() != expect) {
        throw Error("footer lists chunk #" + std::to_string(i) + " at " + std::to_string(ref->offset()) +
                        " but the previous chunk ends at " + std::to_string(expect),
                    *footer_at);
      }
      if (expect + layout::kChunkHeaderSize > *footer_at) {
        throw Error("footer lists chunk #" + std::to_string(i) + " past the footer", *footer_at);
      }
      layout::ChunkHeader ch;
      std::string why = layout::CheckChunkHeader(data_ + expect, *footer_at - expect - layout::kChunkHeaderSize, &ch);
      if (!why.empty()) throw Error("chunk #" + std::to_string(i) + ": " + why, expect);
      if (uint8_t(ch.type) != ref->type() || ch.codec != ref->codec() ||
          ch.stored_size != ref->stored_size() || ch.raw_size != ref->raw_size()) {
        throw Error("chunk #" + std::to_string(i) + " header disagrees with the footer", expect);
      }
      if (ch.type == ChunkType::kFooter) throw Error("footer chunk listed among the chunks", expect);
      chunks_.push_back({expect, ch.type, ch.codec, ch.stored_size, ch.raw_size});
      expect += layout::kChunkHeaderSize + ch.stored_size;
    }
    if (expect != *footer_at) throw Error("chunks listed by the footer do not reach the footer", *footer_at);
    const fb::Totals* t = f->totals();
    totals_ = {t->frames(), t->submissions(), t->pm4_dwords(), t->memory_events(),
               t->pages_distinct(), t->pages_referenced(), t->bytes_raw(), t->bytes_compressed()};
    const auto* ffc = f->frame_first_chunk();
    if (ffc->size() != totals_.frames + 1) {
      throw Error("footer frame index has " + std::to_string(ffc->size()) + " entries for " +
                      std::to_string(totals_.frames) + " frames",
                  *footer_at);
    }
    uint32_t prev = 0;
    for (uint32_t v : *ffc) {
      if (v < prev || v > chunks_.size()) throw Error("footer frame index is out of order or range", *footer_at);
      prev = v;
    }
    frame_first_chunk_.assign(ffc->begin(), ffc->end());
    if (f->pages()) {
      for (const fb::PageLocation* loc : *f->pages()) {
        if (loc->chunk() >= chunks_.size() || chunks_[loc->chunk()].type != ChunkType::kPages) {
          throw Error("footer page index names chunk " + std::to_string(loc->chunk()) +
                          ", which is not a pages chunk",
                      *footer_at);
        }
      }
    }
    footer_pages_ = f->pages();
    // A cache hint only (a wrong value costs a re-decode, never a wrong byte), so any length other
    // than one entry per chunk is ignored rather than refused.
    if (f->pages_last_use() && f->pages_last_use()->size() == chunks_.size()) {
      pages_last_use_.assign(f->pages_last_use()->begin(), f->pages_last_use()->end());
      footer_has_last_use_ = true;
    }
    footer_offset_ = *footer_at;
    footer_summary_ = ChunkSummary{*footer_at, ChunkType::kFooter, h.codec, h.stored_size, h.raw_size};
  }

  void Scan(const std::string& footer_problem) {
    recovered_ = true;
    Tally tally;
    PooledDCtx dctx = AcquireDCtx();
    uint64_t offset = layout::kFileHeaderSize;
    std::string stop;
    ByteBuffer storage;
    while (offset < size_) {
      if (size_ - offset < layout::kChunkHeaderSize) {
        stop = "incomplete chunk header (" + std::to_string(size_ - offset) + " bytes)";
        break;
      }
      layout::ChunkHeader h;
      std::string bad = layout::CheckChunkHeader(data_ + offset, size_ - offset - layout::kChunkHeaderSize, &h);
      if (!bad.empty()) {
        stop = bad;
        break;
      }
      if (h.type == ChunkType::kFooter) {
        stop = "footer chunk (not usable: see above)";
        break;
      }
      ChunkSummary c{offset, h.type, h.codec, h.stored_size, h.raw_size};
      try {
        auto raw = DecodeAt(h, offset, dctx.get(), &storage);
        VerifyChunkPayload(h.type, raw, offset);
        tally.Add(c, uint32_t(chunks_.size()), raw);
      } catch (const Error& e) {
        stop = e.bare_message();
        break;
      }
      chunks_.push_back(c);
      offset += layout::kChunkHeaderSize + h.stored_size;
    }
    scan_stop_offset_ = offset;
    scan_stop_reason_ = stop.empty() ? "end of file" : stop;
    totals_ = tally.totals;
    frame_first_chunk_ = tally.frame_first_chunk;
    if (frame_first_chunk_.empty()) frame_first_chunk_.push_back(uint32_t(chunks_.size()));
    page_index_ = std::move(tally.pages);
    page_index_ready_ = true;
    pages_last_use_ = std::move(tally.pages_last_use);
    pages_last_use_.resize(chunks_.size(), 0);
    recovery_note_ = "footer unusable (" + footer_problem + "); recovered " +
                     std::to_string(chunks_.size()) + " whole chunks by scanning; " +
                     (stop.empty() ? "reached the end of the file"
                                   : "stopped at byte offset " + std::to_string(offset) + ": " + stop);
  }

  // --- Chunk decoding
  // Returns the verified raw payload of the chunk whose (checked) header is `h`; copies a stored
  // payload that sits misaligned in the file so that the FlatBuffers verifier can check alignment.
  std::span<const uint8_t> DecodeAt(const layout::ChunkHeader& h, uint64_t offset, ZSTD_DCtx* dctx,
                                    ByteBuffer* storage) const {
    const uint8_t* payload = data_ + offset + layout::kChunkHeaderSize;
    auto raw = DecodeChunk(h, payload, offset, dctx, storage);
    if (raw.data() == payload && (reinterpret_cast<uintptr_t>(payload) & 7) != 0) {
      uint8_t* copy = storage->Resize(raw.size());
      std::memcpy(copy, raw.data(), raw.size());
      raw = {copy, raw.size()};
    }
    return raw;
  }

  // Decoded chunks hand their buffers back here when released, so that the next chunk reuses
  // memory that is already mapped: fresh allocations of this size cost a page fault per 4 KiB.
  // The smallest idle buffer that holds `need` bytes; none (a fresh one) when none does, so that
  // a small idle buffer is kept for a small chunk rather than replaced.
  ByteBuffer TakeBuffer(size_t need) const {
    std::lock_guard<std::mutex> lock(buffer_mutex_);
    size_t best = free_buffers_.size();
    for (size_t i = 0; i < free_buffers_.size(); ++i) {
      const size_t cap = free_buffers_[i].capacity();
      if (cap >= need && (best == free_buffers_.size() || cap < free_buffers_[best].capacity())) best = i;
    }
    if (best == free_buffers_.size()) return {};
    ByteBuffer b = std::move(free_buffers_[best]);
    free_buffers_[best] = std::move(free_buffers_.back());
    free_buffers_.pop_back();
    free_buffer_bytes_ -= b.capacity();
    return b;
  }
  void ReturnBuffer(ByteBuffer b) const {
    if (!b.data()) return;
    std::lock_guard<std::mutex> lock(buffer_mutex_);
    if (free_buffer_bytes_ + b.capacity() > kFreeBufferBudget) return;
    free_buffer_bytes_ += b.capacity();
    free_buffers_.push_back(std::move(b));
  }

  std::shared_ptr<DecodedChunk> Decode(uint32_t index, ZSTD_DCtx* dctx) const {
    std::shared_ptr<DecodedChunk> out(new DecodedChunk, [this](DecodedChunk* c) {
      ReturnBuffer(std::move(c->storage));
      delete c;
    });
    const ChunkSummary& c = chunks_[index];
    // A stored payload is used in place (copied only when misaligned), so it takes no buffer.
    if (c.codec != layout::kCodecStored) out->storage = TakeBuffer(c.raw_size);
    out->index = index;
    try {
      layout::ChunkHeader h;
      std::string bad = layout::CheckChunkHeader(data_ + c.file_offset,
                                                 size_ - c.file_offset - layout::kChunkHeaderSize, &h);
      if (!bad.empty()) throw Error(bad, c.file_offset);
      out->raw = DecodeAt(h, c.file_offset, dctx, &out->storage);
      VerifyChunkPayload(h.type, out->raw, c.file_offset);
    } catch (...) {
      out->error = std::current_exception();
      out->raw = {};
    }
    return out;
  }

  DecodedChunkPtr DecodeOrThrow(uint32_t index, ZSTD_DCtx* dctx) const {
    auto c = Decode(index, dctx);
    if (c->error) std::rethrow_exception(c->error);
    return c;
  }

  // Worker `w` (0 = the calling thread when there are no workers) takes its context on first use:
  // each slot is touched by one thread only, and the vector is never resized after this.
  Prefetcher::DecodeFn MakeDecodeFn(std::vector<PooledDCtx>& dctxs) const {
    dctxs.resize(size_t(threads_) + 1);
    return [this, &dctxs](uint32_t index, unsigned worker) {
      if (!dctxs[worker]) dctxs[worker] = AcquireDCtx();
      return Decode(index, dctxs[worker].get());
    };
  }

  // --- Pages
  void EnsurePageIndex() {
    if (page_index_ready_) return;
    if (footer_pages_) {
      page_index_.reserve(footer_pages_->size());
      for (const fb::PageLocation* loc : *footer_pages_) {
        page_index_.try_emplace(ToPageHash(loc->hash()), PageLoc{loc->chunk(), loc->slot()});
      }
    }
    page_index_ready_ = true;
  }

  struct CachedPages {
    DecodedChunkPtr chunk;
    const fb::PageChunk* root = nullptr;
    uint64_t last_use = 0;
  };

  const CachedPages& CachePages(DecodedChunkPtr chunk) {
    auto it = page_cache_.find(chunk->index);
    if (it != page_cache_.end()) return it->second;
    while (page_cache_bytes_ + chunk->raw.size() > kPageCacheBudget && !page_cache_.empty()) {
      auto victim = std::min_element(page_cache_.begin(), page_cache_.end(), [](const auto& a, const auto& b) {
        return a.second.last_use < b.second.last_use;
      });
      page_cache_bytes_ -= victim->second.chunk->raw.size();
      page_cache_.erase(victim);
    }
    page_cache_bytes_ += chunk->raw.size();
    CachedPages entry{chunk, ChunkRoot<fb::PageChunk>(chunk->raw), ++use_clock_};
    return page_cache_.emplace(chunk->index, std::move(entry)).first->second;
  }

  // Drops from the cache the pages chunks that no commands chunk after `commands_chunk` names, so
  // their buffers are reused for the next chunks instead of fresh memory (each fresh 4 KiB page
  // costs a fault, a memcg charge and zeroing: on the 128 MiB bench trace the page cache's fresh
  // memory was about 15 % of a single-threaded read). Only a cache decision: a chunk named again
  // after all (a wrong hint) is decoded again.
  void ReleasePagesUsedUpBy(uint32_t commands_chunk) {
    if (pages_last_use_.empty()) return;
    for (auto it = page_cache_.begin(); it != page_cache_.end();) {
      const uint32_t chunk = it->first;
      if (chunk < commands_chunk && chunk < pages_last_use_.size() && pages_last_use_[chunk] <= commands_chunk) {
        page_cache_bytes_ -= it->second.chunk->raw.size();
        it = page_cache_.erase(it);
      } else {
        ++it;
      }
    }
  }

  // Returns the page's 4096 bytes; `keep` holds its chunk alive until the caller is done, and
  // keep->back() is that chunk.
  const uint8_t* ResolvePage(const PageHash& hash, uint64_t where, std::vector<DecodedChunkPtr>* keep) {
    const PageLoc* found = page_index_.find(hash);
    if (!found) {
      throw Error("memory event names page " + HashText(hash) + ", which the file does not hold", where);
    }
    const PageLoc loc = *found;
    auto it = page_cache_.find(loc.chunk);
    const CachedPages* cached;
    if (it != page_cache_.end()) {
      cached = &it->second;
    } else {
      if (!main_dctx_) main_dctx_ = AcquireDCtx();
      cached = &CachePages(DecodeOrThrow(loc.chunk, main_dctx_.get()));
    }
    const_cast<CachedPages*>(cached)->last_use = ++use_clock_;
    const auto* hashes = cached->root->hashes();
    if (!hashes || loc.slot >= hashes->size() || !(ToPageHash(*hashes->Get(loc.slot)) == hash)) {
      throw Error("page index points at the wrong page for " + HashText(hash), chunks_[loc.chunk].file_offset);
    }
    if (keep->empty() || keep->back() != cached->chunk) keep->push_back(cached->chunk);
    return cached->root->data()->data() + uint64_t(loc.slot) * kPageSize;
  }

  // Records are delivered from these reused slots: a vector keeps its capacity from one record to
  // the next, so streaming allocates (and page-faults) only when a record outgrows the last one.
  // A callback that keeps a record copies it (reader.h: valid during the callback).
  struct Slots {
    Record submission{Submission{}};
    Record registers{RegisterSnapshot{}};
    Record gamma{GammaRamp{}};
  };
  // Capacity above this is given back after the record, so one huge event does not pin memory.
  static constexpr size_t kSlotKeepBytes = 64u << 20;

  template <typename T>
  static void AssignWords(std::vector<T>& out, const flatbuffers::Vector<T>* v) {
    if (v) out.assign(v->data(), v->data() + v->size());
    else out.clear();
  }

  const Record& FillSubmission(const fb::Submission& f) {
    auto& s = std::get<Submission>(slots_.submission);
    s.kind = static_cast<SubmissionKind>(f.kind());
    s.guest_address = f.guest_address();
    AssignWords(s.dwords, f.dwords());
    return slots_.submission;
  }
  const Record& FillRegisters(const fb::RegisterSnapshot& f) {
    auto& r = std::get<RegisterSnapshot>(slots_.registers);
    r.first_register = f.first_register();
    AssignWords(r.values, f.values());
    return slots_.registers;
  }
  const Record& FillGamma(const fb::GammaRamp& f) {
    auto& g = std::get<GammaRamp>(slots_.gamma);
    AssignWords(g.table, f.table());
    AssignWords(g.pwl, f.pwl());
    g.rw_component = f.rw_component();
    return slots_.gamma;
  }
  void TrimSlots() {
    auto& s = std::get<Submission>(slots_.submission);
    if (s.dwords.capacity() * 4 > kSlotKeepBytes) std::vector<uint32_t>().swap(s.dwords);
    if (runs_.capacity() * sizeof(runs_[0]) > kSlotKeepBytes / 64) decltype(runs_)().swap(runs_);
  }

  // Hands a memory event to `memory` as spans into the decoded Pages chunks: no page byte is
  // copied. Every page is found (and its slot's hash compared) before the callback runs, so a
  // missing page is an error before any of the event is delivered. Pages that lie back to back in
  // one decoded buffer (consecutive slots, the usual layout of a fresh upload) form one span. The
  // chunks stay held in keep_ until the callback returns; then the view is retired (memory_pages.h).
  bool DeliverMemory(const fb::MemoryEvent& m, uint64_t where, const MemoryCallback& memory) {
    runs_.clear();
    keep_.clear();
    uint32_t in_page = m.guest_address() & (kPageSize - 1);
    uint64_t left = m.size();
    const DecodedChunk* run_chunk = nullptr;
    if (m.size() != 0) {
      for (const fb::PageHash* h : *m.pages()) {
        const uint8_t* page = ResolvePage(ToPageHash(*h), where, &keep_);
        const DecodedChunk* chunk = keep_.back().get();
        const uint32_t n = uint32_t(std::min<uint64_t>(kPageSize - in_page, left));
        if (in_page == 0 && chunk == run_chunk && runs_.back().data() + runs_.back().size() == page) {
          runs_.back() = {runs_.back().data(), runs_.back().size() + n};
        } else {
          runs_.emplace_back(page + in_page, n);
        }
        run_chunk = n == kPageSize - in_page ? chunk : nullptr;  // a partial page ends the run
        left -= n;
        in_page = 0;
      }
    }
    MemoryPagesFill::Set(view_, static_cast<MemoryEventKind>(m.kind()), m.guest_address(), m.size(), runs_);
    struct Retire {
      ReaderImpl* self;
      ~Retire() {
        MemoryPagesFill::SetLive(self->view_, false);
        self->keep_.clear();
      }
    } retire{this};
    MemoryPagesFill::SetLive(view_, true);
    return memory(view_);
  }

  // --- Streaming
  void Walk(uint32_t begin, uint32_t end, const RecordCallback& callback, const MemoryCallback& memory,
            std::optional<uint64_t> last_frame, bool state_only) {
    EnsurePageIndex();
    struct TrimOnExit {
      ReaderImpl* self;
      ~TrimOnExit() { self->TrimSlots(); }
    } trim{this};
    std::vector<PooledDCtx> dctxs;
    Prefetcher prefetch(begin, end, threads_, MakeDecodeFn(dctxs));
    for (uint32_t i = begin; i < end; ++i) {
      auto chunk = prefetch.Get(i);
      if (chunk->error) std::rethrow_exception(chunk->error);
      const ChunkSummary& c = chunks_[i];
      switch (c.type) {
        case ChunkType::kPages: CachePages(chunk); break;
        case ChunkType::kEdram: {
          const auto* e = ChunkRoot<fb::EdramChunk>(chunk->raw);
          EdramSnapshot snap;
          // Through data(): the vector's iterator reads a byte at a time (a 10 MiB snapshot).
          if (const auto* b = e->bytes()) snap.bytes.assign(b->data(), b->data() + b->size());
          if (!callback(Record(std::move(snap)))) return;
          break;
        }
        case ChunkType::kCommands:
          if (!WalkCommands(c, chunk->raw, callback, memory, last_frame, state_only)) return;
          ReleasePagesUsedUpBy(i);
          break;
        case ChunkType::kInfo:
        case ChunkType::kFooter: break;
      }
    }
  }

  // Returns false when the walk should stop (callback said so, or last_frame ended).
  bool WalkCommands(const ChunkSummary& c, std::span<const uint8_t> raw, const RecordCallback& callback,
                    const MemoryCallback& memory, std::optional<uint64_t> last_frame, bool state_only) {
    const auto* cmd = ChunkRoot<fb::CommandChunk>(raw);
    if (!cmd->records()) return true;
    const auto* types = cmd->records_type();
    for (uint32_t i = 0; i < cmd->records()->size(); ++i) {
      auto type = static_cast<fb::RecordBody>(types->Get(i));
      const void* body = cmd->records()->Get(i);
      std::string bad = CheckRecord(type, body);
      if (!bad.empty()) {
        if (type > fb::RecordBody_MAX) continue;  // a newer writer's record kind: skip it
        throw Error(RecordWhere(c.file_offset, i) + ": " + bad, c.file_offset);
      }
      bool keep_going = true;
      switch (type) {
        case fb::RecordBody_Submission:
          if (!state_only) keep_going = callback(FillSubmission(*static_cast<const fb::Submission*>(body)));
          break;
        case fb::RecordBody_MemoryEvent:
          keep_going = DeliverMemory(*static_cast<const fb::MemoryEvent*>(body), c.file_offset, memory);
          break;
        case fb::RecordBody_RegisterSnapshot:
          keep_going = callback(FillRegisters(*static_cast<const fb::RegisterSnapshot*>(body)));
          break;
        case fb::RecordBody_GammaRamp:
          keep_going = callback(FillGamma(*static_cast<const fb::GammaRamp*>(body)));
          break;
        case fb::RecordBody_FrameMarker: {
          auto marker = ToFrameMarker(*static_cast<const fb::FrameMarker*>(body));
          if (!state_only) keep_going = callback(Record(marker));
          if (last_frame && marker.frame_index >= *last_frame) return false;
          break;
        }
        case fb::RecordBody_Annotation:
          if (!state_only) keep_going = callback(Record(ToAnnotation(*static_cast<const fb::Annotation*>(body))));
          break;
        case fb::RecordBody_NONE: break;
      }
      if (!keep_going) return false;
    }
    return true;
  }

  // --- Validation against the footer
  void CompareFooter(const Tally& t, std::vector<std::string>* problems) const {
    auto cmp = [&](const char* what, uint64_t footer, uint64_t actual) {
      if (footer != actual) {
        problems->push_back("at byte offset " + std::to_string(footer_offset_) + ": footer says " +
                            std::to_string(footer) + " " + what + ", the chunks hold " + std::to_string(actual));
      }
    };
    cmp("frames", totals_.frames, t.totals.frames);
    cmp("submissions", totals_.submissions, t.totals.submissions);
    cmp("PM4 dwords", totals_.pm4_dwords, t.totals.pm4_dwords);
    cmp("memory events", totals_.memory_events, t.totals.memory_events);
    cmp("distinct pages", totals_.pages_distinct, t.totals.pages_distinct);
    cmp("page references", totals_.pages_referenced, t.totals.pages_referenced);
    cmp("raw bytes", totals_.bytes_raw, t.totals.bytes_raw);
    cmp("compressed bytes", totals_.bytes_compressed, t.totals.bytes_compressed);
    if (frame_first_chunk_ != t.frame_first_chunk && t.totals.frames == totals_.frames) {
      problems->push_back("at byte offset " + std::to_string(footer_offset_) +
                          ": footer frame index disagrees with the frame markers in the chunks");
    }
    if (footer_has_last_use_) {
      std::vector<uint32_t> actual = t.pages_last_use;
      actual.resize(chunks_.size(), 0);
      if (actual != pages_last_use_) {
        problems->push_back("at byte offset " + std::to_string(footer_offset_) +
                            ": footer's last use of the pages chunks disagrees with the memory events");
      }
    }
    uint64_t listed = footer_pages_ ? footer_pages_->size() : 0;
    cmp("indexed pages", listed, t.pages.size());
    if (footer_pages_) {
      for (const fb::PageLocation* loc : *footer_pages_) {
        const PageLoc* at = t.pages.find(ToPageHash(loc->hash()));
        if (!at || at->chunk != loc->chunk() || at->slot != loc->slot()) {
          problems->push_back("at byte offset " + std::to_string(footer_offset_) + ": footer page index entry for " +
                              HashText(ToPageHash(loc->hash())) + " does not match the pages chunks");
          break;
        }
      }
    }
  }

  ReaderOptions options_;
  unsigned threads_ = 1;
  std::vector<uint8_t> owned_;
  void* map_ = nullptr;
  size_t map_size_ = 0;
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;

  mutable std::mutex buffer_mutex_;
  mutable std::vector<ByteBuffer> free_buffers_;
  mutable uint64_t free_buffer_bytes_ = 0;

  TraceInfo info_;
  bool recovered_ = false;
  std::string recovery_note_;
  uint64_t scan_stop_offset_ = 0;
  std::string scan_stop_reason_;
  TraceTotals totals_;
  std::vector<ChunkSummary> chunks_;
  std::vector<uint32_t> frame_first_chunk_;
  uint64_t footer_offset_ = 0;
  std::optional<ChunkSummary> footer_summary_;
  ByteBuffer footer_storage_;
  const flatbuffers::Vector<const fb::PageLocation*>* footer_pages_ = nullptr;

  PageIndex page_index_;
  bool page_index_ready_ = false;
  // Per chunk: the last commands chunk naming one of its pages (footer, or the recovery scan's
  // tally); empty when unknown.
  std::vector<uint32_t> pages_last_use_;
  bool footer_has_last_use_ = false;
  std::unordered_map<uint32_t, CachedPages> page_cache_;
  uint64_t page_cache_bytes_ = 0;
  uint64_t use_clock_ = 0;
  PooledDCtx main_dctx_;
  Slots slots_;
  // The memory event being delivered: its spans, the chunks they point into, and the view.
  std::vector<std::span<const uint8_t>> runs_;
  std::vector<DecodedChunkPtr> keep_;
  MemoryPages view_;
};

}  // namespace

std::unique_ptr<Reader> Reader::Open(const std::string& path, const ReaderOptions& options) {
  auto r = std::make_unique<ReaderImpl>(options);
  r->MapFile(path);
  r->Index();
  return r;
}

std::unique_ptr<Reader> Reader::OpenMemory(std::span<const uint8_t> bytes, const ReaderOptions& options) {
  auto r = std::make_unique<ReaderImpl>(options);
  r->UseMemory(bytes);
  r->Index();
  return r;
}

}  // namespace xnt::format
