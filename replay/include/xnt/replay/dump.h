// The `xenotrace dump` printer: a Backend + PacketObserver that turns what the trace player and
// command processor do into text (one line per packet / register write / draw / resolve / swap /
// event / diagnostic) or JSON lines. Kept in the library so tests can check golden output and
// measure decoding speed without the CLI.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "xnt/base/selection.h"
#include "xnt/replay/backend.h"
#include "xnt/replay/command_processor.h"
#include "xnt/replay/trace_player.h"

namespace xnt::replay {

struct DumpOptions {
  std::optional<uint64_t> frame;  // only this frame (earlier frames still run, silently)
  FrameSet frames;                // and only these (`--frames A-B,C`; default every frame)
  std::optional<uint32_t> draw;   // only the packets leading to draw K (since draw K-1) and K
  bool json = false;              // JSON lines instead of text
  bool registers = true;          // register-write lines under each packet
};

class DumpPrinter : public Backend, public PacketObserver {
 public:
  using Sink = std::function<void(std::string_view)>;
  DumpPrinter(const DumpOptions& options, Sink sink);
  ~DumpPrinter() override;

  // Must be called before playing: the printer reads the frame counter and registers.
  void Attach(TracePlayer& player);
  // Plays `reader` through the player (stopping after the selected frame) and flushes.
  void Run(TracePlayer& player, format::Reader& reader);
  void Flush();

  uint64_t packets() const { return packets_; }
  uint64_t draws_printed() const { return draws_printed_; }

  // PacketObserver
  void OnPacket(const PacketInfo& p) override;
  void OnRegisterWrite(uint32_t index, uint32_t value) override;
  void OnDiagnostic(const Diagnostic& d) override;
  // Backend
  void OnDraw(const DrawCall& d) override;
  void OnResolve(const ResolveCall& r) override;
  void OnMemExport(const MemExportCall& m) override;
  void OnSwap(const SwapCall& s) override;
  void OnEvent(const EventCall& e) override;
  void OnEdramSnapshot(std::span<const uint8_t> bytes) override;
  void OnGammaRamp(const format::GammaRamp& ramp) override;
  void OnFrameEnd(const FrameEndCall& f) override;

  // Called for each record before it is applied (non-submission records get a line).
  bool OnRecord(uint64_t index, const format::Record& record);

 private:
  bool InFrame() const;
  void Line(std::string_view text);  // appends text (already ending in '\n') to the output
  // Where lines go right now: the output, or the --draw segment buffer.
  std::string& Target() { return in_segment_mode_ ? segment_ : out_; }
  void LineDone();
  void EndDrawSegment(uint32_t draw_index);
  void AppendRenderTargets(std::string& out, const DrawCall& d);

  DumpOptions options_;
  Sink sink_;
  TracePlayer* player_ = nullptr;
  std::string out_;
  std::string segment_;  // --draw: lines since the previous draw
  bool in_segment_mode_ = false;
  uint64_t packets_ = 0;
  uint64_t draws_printed_ = 0;
};

}  // namespace xnt::replay
