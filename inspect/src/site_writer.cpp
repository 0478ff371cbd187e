// `xenotrace inspect`'s site: the trace replayed once on the chosen path through a Session whose
// draw hook sees every draw and resolve before and after the path runs it; `dump`'s printer
// watches the command processor so each event carries the PM4 packets that led to it.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <memory>

#include "site_assets.h"
#include "site_internal.h"
#include "xnt/base/error.h"
#include "xnt/compare/snapshot.h"
#include "xnt/format/reader.h"
#include "xnt/gpu/edram_report.h"
#include "xnt/inspect/pixel_history.h"
#include "xnt/inspect/site.h"
#include "xnt/replay/dump.h"
#include "xnt/replay/register_names.h"
#include "xnt/replay/trace_player.h"

namespace xnt::inspect {
namespace {

// A DMA'd packet stream can be long between two draws: the page shows its first part.
constexpr size_t kMaxPacketText = 64 * 1024;

std::string Hash(uint64_t hash) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
  return buf;
}

std::string EventId(uint64_t frame, uint32_t draw) {
  return std::to_string(frame) + "." + std::to_string(draw);
}

class SiteWriter {
 public:
  explicit SiteWriter(const SiteOptions& o)
      : o_(o), files_(o.out_dir), images_(files_, o.image_budget_bytes) {}
  SiteSummary Run();

 private:
  void OnDrawEvent(const renderer::DrawEvent& e);
  void Before(const renderer::DrawEvent& e);
  void After(const renderer::DrawEvent& e);
  void OnSwap(uint64_t frame, const gpu::SwapImage& image);
  void AddShader(const replay::Shader* shader);
  bool WantsImages(uint64_t frame, uint32_t draw) const;
  void Push(Json list_entry, Json detail);
  void FlushChunk();
  void WriteIndex(const format::Reader& reader);
  void WriteHistory();

  const SiteOptions& o_;
  SiteFiles files_;
  ImageWriter images_;
  RegisterState state_;
  std::unique_ptr<renderer::Session> session_;
  std::unique_ptr<replay::DumpPrinter> printer_;
  const replay::RegisterFile* registers_ = nullptr;
  std::string packets_;
  Json list_ = Json::array();
  Json chunk_ = Json::object();
  Json chunk_base_;
  uint64_t chunk_first_ = 0;
  std::set<uint64_t> shaders_;
  std::set<uint32_t> registers_named_;
  // The event between its before and after calls.
  Json pending_list_, pending_detail_;
  bool pending_images_ = false;
  bool budget_spent_ = false;
  struct LastAfter {
    Json targets;  // what the event wrote (describe strings)
    Json json;     // its after images
    uint64_t generation = 0;  // guest memory's generation then
  };
  std::optional<LastAfter> last_after_;
  size_t log_before_ = 0;
  std::map<std::string, uint64_t> notes_before_;
  SiteSummary summary_;
  std::set<uint64_t> frames_seen_;
  std::vector<gpu::EdramReportOptions::DrawAddress> event_draws_;
};

bool SiteWriter::WantsImages(uint64_t frame, uint32_t draw) const {
  if (o_.image_events.empty()) return true;
  for (const EventRange& r : o_.image_events) {
    if (r.Contains(frame, draw)) return true;
  }
  return false;
}

void SiteWriter::AddShader(const replay::Shader* shader) {
  if (!shader || !shaders_.insert(shader->hash).second) return;
  files_.WriteScript("data/shaders/" + Hash(shader->hash) + ".js", "XNT.shader",
                     ShaderJson(*shader, o_.session.path));
  ++summary_.shaders;
}

void SiteWriter::OnDrawEvent(const renderer::DrawEvent& e) {
  const replay::DrawCall& d = *e.draw;
  if (gpu::EdramTracker* tracker = session_->edram(); tracker && e.after) {
    while (event_draws_.size() < tracker->events()) event_draws_.push_back({d.frame, d.draw_index});
  }
  if (!o_.frames.all() && !o_.frames.Contains(d.frame)) {
    if (!e.after) state_.Changes(*d.registers);  // "changed since the previous event" stays exact
    return;
  }
  e.after ? After(e) : Before(e);
}

void SiteWriter::Before(const renderer::DrawEvent& e) {
  const replay::DrawCall& d = *e.draw;
  e.resolve ? printer_->OnResolve(*e.resolve) : printer_->OnDraw(d);
  printer_->Flush();
  const std::string id = EventId(d.frame, d.draw_index);
  frames_seen_.insert(d.frame);
  Json item;
  item["id"] = id;
  item["kind"] = e.resolve ? "resolve" : "draw";
  item["prim"] = xenos::PrimitiveTypeName(uint32_t(d.initiator.prim_type));
  item["count"] = d.initiator.num_indices;
  if (d.vertex_shader) item["vs"] = Hash(d.vertex_shader->hash);
  if (d.pixel_shader) item["ps"] = Hash(d.pixel_shader->hash);
  Json targets = Json::array();
  for (const compare::TargetRegion& t : compare::EventTargets(e)) targets.push_back(t.Describe());
  for (const compare::MemoryTarget& t : compare::EventMemoryTargets(e)) targets.push_back(t.describe);
  item["targets"] = std::move(targets);
  const std::vector<uint32_t> changed = state_.Changes(*d.registers);
  item["changed"] = changed;
  registers_named_.insert(changed.begin(), changed.end());

  Json detail;
  Json changes = Json::array();
  for (uint32_t index : changed) changes.push_back(RegisterState::Entry(index, (*d.registers)[index]));
  detail["changes"] = std::move(changes);
  detail["packets"] = packets_.size() > kMaxPacketText
                          ? packets_.substr(0, kMaxPacketText) + "\n... (" +
                                std::to_string(packets_.size() - kMaxPacketText) + " more bytes)\n"
                          : packets_;
  packets_.clear();
  for (const replay::Shader* s : {d.vertex_shader, d.pixel_shader}) {
    if (!s) continue;
    AddShader(s);
    detail[s == d.vertex_shader ? "vs_constants" : "ps_constants"] = ConstantsRead(*s, *d.registers);
  }
  // Once the budget is spent no later event is snapshotted at all: reading a target back costs
  // as much as drawing it, and a 20,000-draw frame would otherwise pay it for every draw.
  pending_images_ = !budget_spent_ && WantsImages(d.frame, d.draw_index);
  if (!e.resolve) {
    detail["vertex_fetch"] = VertexFetchJson(d, o_.fetch_rows);
    detail["indices"] = IndexJson(d, o_.fetch_rows);
    detail["textures"] = TexturesJson(d, pending_images_ ? &images_ : nullptr);
  }
  images_.ResetOverBudget();
  if (pending_images_) {
    // The state before this event is the one after the previous event when nothing ran between
    // them (no event without a snapshot, no guest memory written): its images are reused.
    const bool same = last_after_ && last_after_->targets == item["targets"] &&
                      last_after_->generation == d.memory->generation();
    detail["before"] = same ? last_after_->json
                            : TargetsJson(*session_, e, images_, files_, id + "_before", false);
  }
  last_after_.reset();
  if (gpu::EdramTracker* tracker = session_->edram()) log_before_ = tracker->log().size();
  notes_before_ = session_->notes();
  pending_list_ = std::move(item);
  pending_detail_ = std::move(detail);
}

void SiteWriter::After(const renderer::DrawEvent& e) {
  const replay::DrawCall& d = *e.draw;
  const std::string id = EventId(d.frame, d.draw_index);
  if (pending_images_) {
    pending_detail_["after"] = TargetsJson(*session_, e, images_, files_, id + "_after", true);
    last_after_ = LastAfter{pending_list_["targets"], pending_detail_["after"], d.memory->generation()};
    for (Json& t : last_after_->json) t.erase("bits");
    if (images_.over_budget()) {
      budget_spent_ = true;
    } else {
      ++summary_.events_with_images;
    }
  }
  if (budget_spent_ && WantsImages(d.frame, d.draw_index)) {
    pending_list_["images"] = "over budget";
    ++summary_.events_over_budget;
  } else if (!pending_images_) {
    pending_list_["images"] = "not selected";
  }
  Json transfers = Json::array();
  if (gpu::EdramTracker* tracker = session_->edram()) {
    for (size_t i = log_before_; i < tracker->log().size(); ++i) {
      const gpu::edram::Transfer& t = tracker->log()[i].transfer;
      transfers.push_back(Json::array({i, t.start_tile, t.end_tile, t.bytes, t.source.Describe(),
                                       t.dest.Describe(), t.reason}));
    }
  }
  pending_detail_["transfers"] = std::move(transfers);
  Json notes = Json::array();
  for (const auto& [note, count] : session_->notes()) {
    auto it = notes_before_.find(note);
    if (it == notes_before_.end() || it->second < count) notes.push_back(note);
  }
  if (!notes.empty()) pending_list_["notes"] = std::move(notes);
  e.resolve ? ++summary_.resolves : ++summary_.draws;
  Push(std::move(pending_list_), std::move(pending_detail_));
  if (o_.progress && summary_.events % 256 == 0) o_.progress(summary_.events);
}

void SiteWriter::OnSwap(uint64_t frame, const gpu::SwapImage& image) {
  if (!o_.frames.all() && !o_.frames.Contains(frame)) return;
  frames_seen_.insert(frame);
  Json item;
  item["id"] = std::to_string(frame) + ".swap";
  item["kind"] = "swap";
  item["size"] = Json::array({image.width, image.height});
  const diff::Image view =
      diff::Rgba8View(int(image.width), int(image.height), image.rgba.data());
  Json detail;
  detail["front_buffer"] = image.width ? images_.Write(view) : std::string();
  detail["packets"] = std::move(packets_);
  packets_.clear();
  ++summary_.swaps;
  Push(std::move(item), std::move(detail));
}

void SiteWriter::Push(Json list_entry, Json detail) {
  const uint64_t index = list_.size();
  if (chunk_.empty()) {
    chunk_first_ = index;
    chunk_base_ = state_.Full(*registers_);
  }
  list_entry["chunk"] = index / kChunkEvents;
  chunk_[list_entry["id"].get<std::string>()] = std::move(detail);
  list_.push_back(std::move(list_entry));
  ++summary_.events;
  if (chunk_.size() == kChunkEvents) FlushChunk();
}

void SiteWriter::FlushChunk() {
  if (chunk_.empty()) return;
  Json c;
  c["chunk"] = chunk_first_ / kChunkEvents;
  c["base"] = std::move(chunk_base_);
  c["events"] = std::move(chunk_);
  files_.WriteScript("data/chunks/c" + std::to_string(chunk_first_ / kChunkEvents) + ".js",
                     "XNT.chunk", c);
  chunk_ = Json::object();
  chunk_base_ = Json::array();
}

}  // namespace

namespace {

void SiteWriter::WriteIndex(const format::Reader& reader) {
  Json index;
  index["trace"] = o_.trace;
  index["path"] = renderer::PathName(o_.session.path);
  index["scale"] = std::to_string(o_.session.renderer.scale_x) + "x" +
                   std::to_string(o_.session.renderer.scale_y);
  index["frames_in_trace"] = reader.totals().frames;
  index["chunk_events"] = kChunkEvents;
  index["image_budget_bytes"] = o_.image_budget_bytes;
  index["history_budget_bytes"] = o_.history_budget_bytes;
  index["transfers"] = session_->edram() ? "transfers.html" : "";
  Json names = Json::object();
  for (uint32_t i : registers_named_) names[std::to_string(i)] = replay::RegisterName(i);
  index["registers"] = std::move(names);
  Json frames = Json::array();
  for (uint64_t f : frames_seen_) frames.push_back(f);
  index["frames"] = std::move(frames);
  index["command"] = "xenotrace inspect " + o_.trace + " -o " + o_.out_dir + " --path " +
                     renderer::PathName(o_.session.path) + " --scale " + index["scale"].get<std::string>();
  // The list in chunks, and each chunk's first and last id (the page finds a deep-linked event's
  // chunk without reading the others).
  Json lists = Json::array();
  for (size_t first = 0; first < list_.size(); first += kListEvents) {
    Json c;
    c["chunk"] = first / kListEvents;
    c["first"] = first;
    c["events"] = Json::array();
    const size_t end = std::min<size_t>(list_.size(), first + kListEvents);
    for (size_t i = first; i < end; ++i) c["events"].push_back(std::move(list_[i]));
    lists.push_back(Json::array({c["events"].front()["id"], c["events"].back()["id"]}));
    files_.WriteScript("data/list/l" + std::to_string(first / kListEvents) + ".js", "XNT.list", c);
  }
  index["count"] = list_.size();
  index["list_events"] = kListEvents;
  index["lists"] = std::move(lists);
  files_.WriteScript("data/events.js", "XNT.events", index);
}

// The history is the cpu path's at the site's scale (every host pixel of a guest pixel): the
// reference the other paths are compared with, so a pixel's story is the same on every page.
void SiteWriter::WriteHistory() {
  if (o_.history_budget_bytes == 0 || frames_seen_.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  HistoryChunkOptions options;
  options.scale = {o_.session.renderer.scale_x, o_.session.renderer.scale_y};
  options.derivatives = o_.session.renderer.derivatives;
  options.byte_budget = o_.history_budget_bytes;
  options.progress = o_.history_progress;
  HistoryChunkResult r;
  try {
    r = WriteHistoryChunks(o_.trace, std::vector<uint64_t>(frames_seen_.begin(), frames_seen_.end()),
                           o_.out_dir, options);
  } catch (const Error& e) {
    // A recovered trace can end inside a frame the history replay cannot finish: the events
    // stay inspectable, and the page says the history was not written.
    summary_.notes.push_back(std::string("pixel history not written: ") + e.what());
    return;
  }
  summary_.history_tiles = r.tiles_written;
  summary_.history_bytes = r.bytes;
  summary_.history_tile_rows_skipped = r.tiles_skipped;
  summary_.history_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

SiteSummary SiteWriter::Run() {
  const auto start = std::chrono::steady_clock::now();
  auto reader = format::Reader::Open(o_.trace);
  const std::string missing = o_.frames.Missing(reader->totals().frames);
  if (!missing.empty()) {
    throw Error("--frames " + o_.frames.text() + ": frame(s) " + missing +
                " not in the trace (it has " + std::to_string(reader->totals().frames) +
                " frames, numbered from 0)");
  }
  std::error_code ec;
  std::filesystem::create_directories(o_.out_dir, ec);
  if (ec) throw Error("-o " + o_.out_dir + ": " + ec.message());
  renderer::SessionOptions options = o_.session;
  options.on_draw_event = [this](const renderer::DrawEvent& e) { OnDrawEvent(e); };
  options.on_swap = [this](uint64_t frame, const gpu::SwapImage& image) { OnSwap(frame, image); };
  session_ = renderer::Session::Create(options);
  replay::DumpOptions dump;
  dump.frames = o_.frames;
  printer_ = std::make_unique<replay::DumpPrinter>(
      dump, [this](std::string_view text) { packets_.append(text); });
  replay::TracePlayer player(session_->backend());
  session_->Attach(player);
  printer_->Attach(player);
  registers_ = &player.registers();
  player.Play(*reader, o_.frames.Last());
  session_->Flush();
  FlushChunk();
  for (const SiteAsset& asset : SiteAssets()) files_.Write(std::string(asset.name), asset.bytes);
  if (gpu::EdramTracker* tracker = session_->edram()) {
    gpu::EdramReportOptions report;
    report.title = o_.trace;
    report.event_draws = event_draws_;
    files_.Write("transfers.html", gpu::EdramReportHtml(*tracker, report));
  }
  WriteIndex(*reader);
  WriteHistory();
  summary_.frames = frames_seen_.size();
  summary_.images = images_.images();
  summary_.image_bytes = images_.bytes();
  summary_.files = files_.files();
  summary_.bytes = files_.bytes();
  summary_.path = renderer::PathName(o_.session.path);
  for (const auto& [note, count] : session_->notes()) {
    summary_.notes.push_back(note + ": " + std::to_string(count));
  }
  summary_.validation_messages = session_->validation_message_count();
  summary_.recovered = reader->recovered();
  summary_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary_;
}

// "F.K" -> DrawId. Throws naming `flag`.
renderer::DrawId ParseEventId(const std::string& text, const std::string& flag) {
  const size_t dot = text.find('.');
  auto number = [&](const std::string& s) -> uint64_t {
    if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos) {
      throw Error(flag + " '" + text + "': expected F.K (frame.event, as dump numbers them)");
    }
    return std::stoull(s);
  };
  if (dot == std::string::npos) number("");
  const uint64_t k = number(text.substr(dot + 1));
  if (k > UINT32_MAX) throw Error(flag + " '" + text + "': event number too large");
  return {number(text.substr(0, dot)), uint32_t(k)};
}

}  // namespace

bool EventRange::Contains(uint64_t frame, uint32_t draw) const {
  const auto key = [](uint64_t f, uint32_t d) { return std::make_pair(f, d); };
  return key(first.frame, first.draw) <= key(frame, draw) && key(frame, draw) <= key(last.frame, last.draw);
}

std::vector<EventRange> ParseEventRanges(const std::string& text, const std::string& flag) {
  std::vector<EventRange> out;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const size_t dash = item.find('-');
    EventRange r;
    r.first = ParseEventId(item.substr(0, dash), flag);
    r.last = dash == std::string::npos ? r.first : ParseEventId(item.substr(dash + 1), flag);
    if (!r.Contains(r.last.frame, r.last.draw)) {
      throw Error(flag + " '" + item + "': the range ends before it starts");
    }
    out.push_back(r);
    at = comma + 1;
  }
  return out;
}

SiteSummary WriteSite(const SiteOptions& options) { return SiteWriter(options).Run(); }

std::string EventLink(const std::string& site_dir, uint64_t frame, uint32_t draw) {
  return site_dir + "/index.html#" + EventId(frame, draw);
}

}  // namespace xnt::inspect
