// A slice cut inside a frame (slice.h, slice_state.h): one cpu-path replay of the source that
// takes the state just before event F.K's packet and records the stream from there through event
// G.M, flattened, then frame G's swap.
#include <string>

#include "slice_pages.h"
#include "slice_state.h"
#include "xnt/base/error.h"
#include "xnt/xenos/pm4.h"
#include "xnt/xenos/registers.h"

namespace xnt::compare::detail {
namespace {

bool IsType3(const replay::PacketInfo& p, xenos::Opcode opcode) {
  return p.type == xenos::PacketType::kType3 && p.opcode == uint32_t(opcode);
}

std::string EventId(uint64_t frame, uint32_t event) {
  return std::to_string(frame) + "." + std::to_string(event);
}

// Watches the command processor's packets (PacketObserver: called before each takes effect) and
// the player's records (the hook: before each is applied).
class EventCutter : public replay::PacketObserver {
 public:
  EventCutter(const SliceRange& range, replay::TracePlayer& player, EventCut& cut)
      : range_(range), player_(player), cut_(cut) {}
  void set_session(renderer::Session* session) { session_ = session; }

  void OnPacket(const replay::PacketInfo& p) override {
    const replay::CommandProcessor& cp = player_.command_processor();
    if (!cut_taken_) {
      // The cut: the draw packet that starts event F.K (a draw the CP drops, as one inside a
      // visibility query, does not take a number; cutting before it changes nothing).
      const bool draw = p.executed && (IsType3(p, xenos::Opcode::kDrawIndx) ||
                                       IsType3(p, xenos::Opcode::kDrawIndx2));
      if (!draw || cp.frame() != range_.first_frame || cp.draw_in_frame() < *range_.first_event) {
        return;
      }
      cut_.state = TakeCutState(player_, *session_, gamma_);
      cut_taken_ = true;
    }
    // After G.M only the swap: it shows the front buffer as the kept events left it.
    const bool swap = IsType3(p, xenos::Opcode::kXeSwap) && p.executed;
    if (PastEnd() && !swap) return;
    if (swap) AddSwapReads(player_.registers(), p.payload, cut_.needed_pages);
    if (swap && PastEnd()) KeepFrontBufferFetch();
    // An indirect buffer's packets follow as the CP walks them, so the call itself goes and the
    // buffer's memory is not needed.
    if (IsType3(p, xenos::Opcode::kIndirectBuffer) ||
        IsType3(p, xenos::Opcode::kIndirectBufferPfd)) {
      return;
    }
    packets_.push_back(p.header);
    packets_.insert(packets_.end(), p.payload.begin(), p.payload.end());
  }

  bool OnRecord(const format::Record& r) {
    FlushPackets();
    const replay::CommandProcessor& cp = player_.command_processor();
    if (const auto* s = std::get_if<format::Submission>(&r)) submission_address_ = s->guest_address;
    if (!cut_taken_) {
      if (const auto* g = std::get_if<format::GammaRamp>(&r)) gamma_ = *g;
      if (std::holds_alternative<format::FrameMarker>(r) && cp.frame() == range_.first_frame) {
        throw NotInFrame(range_.first_frame, *range_.first_event, cp.draw_in_frame());
      }
      return true;
    }
    if (std::holds_alternative<format::Submission>(r)) return true;  // its packets: OnPacket
    if (std::holds_alternative<format::FrameMarker>(r)) {
      if (cp.frame() == range_.last_frame && cp.draw_in_frame() <= *range_.last_event) {
        throw NotInFrame(range_.last_frame, *range_.last_event, cp.draw_in_frame());
      }
      cut_.records.push_back(r);
      return true;
    }
    if (!PastEnd()) cut_.records.push_back(r);
    return true;
  }

  void OnMemoryRead(uint32_t address, uint64_t size) override {
    if (cut_taken_ && !PastEnd()) AddPages(cut_.needed_pages, address, size);
  }

  void OnEvent(const renderer::DrawEvent& e) {
    const uint64_t frame = e.draw->frame;
    const uint32_t event = e.draw->draw_index;
    const bool before =
        frame < range_.first_frame || (frame == range_.first_frame && event < *range_.first_event);
    const bool after =
        frame > range_.last_frame || (frame == range_.last_frame && event > *range_.last_event);
    if (before || after) return;
    if (e.after) {
      ++cut_.events;
    } else {
      AddDrawReads(*e.draw, cut_.needed_pages);
    }
  }

  void Finish() {
    FlushPackets();
    if (!cut_taken_) {
      throw Error("slice: event " + EventId(range_.first_frame, *range_.first_event) +
                  " was not reached");
    }
  }

 private:
  bool PastEnd() const {
    const replay::CommandProcessor& cp = player_.command_processor();
    return cp.frame() > range_.last_frame ||
           (cp.frame() == range_.last_frame && cp.draw_in_frame() > *range_.last_event);
  }

  static Error NotInFrame(uint64_t frame, uint32_t event, uint32_t events) {
    return Error("slice: event " + EventId(frame, event) + " is not in frame " +
                 std::to_string(frame) + " (it has " + std::to_string(events) + " draws/resolves" +
                 (events ? ", " + EventId(frame, 0) + "-" + EventId(frame, events - 1) : "") + ")");
  }

  // The swap scans out what texture fetch constant 0 describes (gpu::ReadFrontBuffer; D3D writes
  // it just before XE_SWAP), and the frame may have written it after G.M, in packets the slice
  // leaves out: one type-0 write of its six dwords as they stand at the swap, so the slice's swap
  // reads the front buffer the source's does (at a resolution scale its scaled copy and size).
  void KeepFrontBufferFetch() {
    const uint32_t first = xenos::FetchConstantIndex(0, 0);
    packets_.push_back(xenos::MakeType0(first, 6));
    for (uint32_t d = 0; d < 6; ++d) packets_.push_back(player_.registers()[first + d]);
  }

  // The packets kept from one submission become one ring submission of the slice.
  void FlushPackets() {
    if (packets_.empty()) return;
    cut_.records.push_back(format::Submission{format::SubmissionKind::kRingBuffer,
                                              submission_address_, std::move(packets_)});
    packets_.clear();
  }

  const SliceRange& range_;
  replay::TracePlayer& player_;
  EventCut& cut_;
  renderer::Session* session_ = nullptr;
  std::optional<format::GammaRamp> gamma_;
  bool cut_taken_ = false;
  uint32_t submission_address_ = 0;
  std::vector<uint32_t> packets_;
};

}  // namespace

EventCut CutAtEvents(format::Reader& reader, const SliceRange& range) {
  EventCut cut;
  renderer::SessionOptions options;
  options.path = renderer::Path::kCpu;
  EventCutter* cutter = nullptr;
  options.on_draw_event = [&](const renderer::DrawEvent& e) { cutter->OnEvent(e); };
  auto session = renderer::Session::Create(options);
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  EventCutter observer(range, player, cut);
  cutter = &observer;
  observer.set_session(session.get());
  player.set_observer(&observer);
  player.Play(reader, range.last_frame,
              [&](uint64_t, const format::Record& r) { return observer.OnRecord(r); });
  session->Flush();
  observer.Finish();
  AddWrittenPages(player.memory(), cut);
  return cut;
}

}  // namespace xnt::compare::detail
