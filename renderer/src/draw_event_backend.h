// A Backend in front of a path's backend: forwards everything, and around each draw and resolve
// calls SessionOptions::on_draw_event (before and after) and applies the test-only
// test_fault_skip_draw and test_fault_resolve_format. Living in the session keeps the paths free
// of per-draw hook code.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "xnt/renderer/session.h"
#include "xnt/replay/backend.h"
#include "xnt/replay/register_file.h"

namespace xnt::renderer {

class DrawEventBackend final : public replay::Backend {
 public:
  DrawEventBackend(replay::Backend& inner, std::function<void(const DrawEvent&)> on_event,
                   std::optional<DrawId> skip, std::optional<DrawId> wrong_resolve_format)
      : inner_(inner),
        on_event_(std::move(on_event)),
        skip_(skip),
        wrong_resolve_format_(wrong_resolve_format) {}

  void OnDraw(const replay::DrawCall& d) override {
    Event({&d, nullptr, false});
    if (!Skipped(d)) inner_.OnDraw(d);
    Event({&d, nullptr, true});
  }
  void OnResolve(const replay::ResolveCall& r) override {
    Event({&r.draw, &r, false});
    if (Skipped(r.draw)) {
    } else if (Matches(wrong_resolve_format_, r.draw)) {
      inner_.OnResolve(WithWrongFormat(r));
    } else {
      inner_.OnResolve(r);
    }
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
  static bool Matches(const std::optional<DrawId>& id, const replay::DrawCall& d) {
    return id && id->frame == d.frame && id->draw == d.draw_index;
  }
  bool Skipped(const replay::DrawCall& d) const { return Matches(skip_, d); }
  // The resolve with its registers copied and RB_COPY_DEST_INFO's format changed.
  const replay::ResolveCall& WithWrongFormat(const replay::ResolveCall& r) {
    patched_registers_ = std::make_unique<replay::RegisterFile>(*r.draw.registers);
    patched_ = r;
    patched_.dest_info.copy_dest_format =
        r.dest_info.copy_dest_format == xenos::TextureFormat::k_8_8_8_8
            ? xenos::TextureFormat::k_2_10_10_10
            : xenos::TextureFormat::k_8_8_8_8;
    patched_registers_->Set(xenos::Reg::RB_COPY_DEST_INFO, patched_.dest_info.Encode());
    patched_.draw.registers = patched_registers_.get();
    return patched_;
  }

  replay::Backend& inner_;
  std::function<void(const DrawEvent&)> on_event_;
  std::optional<DrawId> skip_;
  std::optional<DrawId> wrong_resolve_format_;
  std::unique_ptr<replay::RegisterFile> patched_registers_;
  replay::ResolveCall patched_;
};

}  // namespace xnt::renderer
