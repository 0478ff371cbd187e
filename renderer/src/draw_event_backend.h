// A Backend in front of a path's backend: forwards everything, and around each draw and resolve
// calls SessionOptions::on_draw_event (before and after) and applies the test-only
// test_fault_skip_draw. Living in the session keeps the paths free of per-draw hook code.
#pragma once

#include <functional>
#include <optional>

#include "xnt/renderer/session.h"
#include "xnt/replay/backend.h"

namespace xnt::renderer {

class DrawEventBackend final : public replay::Backend {
 public:
  DrawEventBackend(replay::Backend& inner, std::function<void(const DrawEvent&)> on_event,
                   std::optional<DrawId> skip)
      : inner_(inner), on_event_(std::move(on_event)), skip_(skip) {}

  void OnDraw(const replay::DrawCall& d) override {
    Event({&d, nullptr, false});
    if (!Skipped(d)) inner_.OnDraw(d);
    Event({&d, nullptr, true});
  }
  void OnResolve(const replay::ResolveCall& r) override {
    Event({&r.draw, &r, false});
    if (!Skipped(r.draw)) inner_.OnResolve(r);
    Event({&r.draw, &r, true});
  }
  void OnMemExport(const replay::MemExportCall& m) override {
    if (!Skipped(*m.draw)) inner_.OnMemExport(m);
  }
  void OnSwap(const replay::SwapCall& s) override { inner_.OnSwap(s); }
  void OnEvent(const replay::EventCall& e) override { inner_.OnEvent(e); }
  void OnEdramSnapshot(std::span<const uint8_t> bytes) override { inner_.OnEdramSnapshot(bytes); }
  void OnGammaRamp(const format::GammaRamp& ramp) override { inner_.OnGammaRamp(ramp); }
  void OnMemoryWritten(uint32_t address, uint32_t size) override {
    inner_.OnMemoryWritten(address, size);
  }
  void OnFrameEnd(const replay::FrameEndCall& f) override { inner_.OnFrameEnd(f); }

 private:
  void Event(const DrawEvent& e) {
    if (on_event_) on_event_(e);
  }
  bool Skipped(const replay::DrawCall& d) const {
    return skip_ && skip_->frame == d.frame && skip_->draw == d.draw_index;
  }

  replay::Backend& inner_;
  std::function<void(const DrawEvent&)> on_event_;
  std::optional<DrawId> skip_;
};

}  // namespace xnt::renderer
