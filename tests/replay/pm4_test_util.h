// Test-only helpers: a tiny PM4 stream encoder (the public builder is capture's Pm4Builder) and a
// backend that records what the command processor hands it.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "xnt/format/writer.h"
#include "xnt/replay/backend.h"
#include "xnt/replay/command_processor.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/xenos/pm4.h"

namespace xnt::replay::test {

// A trace file path in the system temp folder, unique to this process and `name`.
inline std::string TempPath(const char* name) {
  auto dir = std::filesystem::temp_directory_path() / "xnt_replay_tests";
  std::filesystem::create_directories(dir);
  return (dir / (std::string(name) + "_" + std::to_string(::getpid()) + ".xnt")).string();
}

// A trace writer for a test trace at `path`; one thread, so the trace's bytes do not depend on
// scheduling.
inline std::unique_ptr<format::Writer> CreateTraceWriter(const std::string& path,
                                                         const std::string& capture_source) {
  format::TraceInfo info;
  info.capture_source = capture_source;
  format::WriterOptions options;
  options.threads = 1;
  return format::Writer::Create(path, info, options);
}

struct Pm4 {
  std::vector<uint32_t> d;
  Pm4& Type0(uint32_t reg, std::initializer_list<uint32_t> values, bool one_reg = false) {
    d.push_back(xenos::MakeType0(reg, uint32_t(values.size()), one_reg));
    d.insert(d.end(), values);
    return *this;
  }
  Pm4& Type0(xenos::Reg reg, std::initializer_list<uint32_t> values) {
    return Type0(xenos::RegIndex(reg), values);
  }
  Pm4& Type1(uint32_t a, uint32_t va, uint32_t b, uint32_t vb) {
    d.push_back(xenos::MakeType1(a, b));
    d.push_back(va);
    d.push_back(vb);
    return *this;
  }
  Pm4& Type2() {
    d.push_back(xenos::MakeType2());
    return *this;
  }
  Pm4& Type3(xenos::Opcode op, std::initializer_list<uint32_t> payload, bool predicated = false) {
    d.push_back(xenos::MakeType3(op, uint32_t(payload.size()), predicated));
    d.insert(d.end(), payload);
    return *this;
  }
  Pm4& Type3(xenos::Opcode op, const std::vector<uint32_t>& payload, bool predicated = false) {
    d.push_back(xenos::MakeType3(op, uint32_t(payload.size()), predicated));
    d.insert(d.end(), payload.begin(), payload.end());
    return *this;
  }
  Pm4& Raw(uint32_t v) {
    d.push_back(v);
    return *this;
  }
};

struct RecordingBackend : Backend {
  struct Draw {
    DrawCall call;
    uint64_t vs_hash = 0, ps_hash = 0;
    std::vector<uint32_t> immediate;
    uint32_t surface_info = 0;
  };
  std::vector<Draw> draws;
  std::vector<ResolveCall> resolves;
  std::vector<SwapCall> swaps;
  std::vector<EventCall> events;
  std::vector<std::pair<uint32_t, uint32_t>> memory_writes;
  std::vector<FrameEndCall> frames;
  uint64_t edram_snapshots = 0, gamma_ramps = 0;

  void OnDraw(const DrawCall& d) override {
    Draw r{d, d.vertex_shader ? d.vertex_shader->hash : 0,
           d.pixel_shader ? d.pixel_shader->hash : 0,
           std::vector<uint32_t>(d.indices.immediate.begin(), d.indices.immediate.end()),
           d.registers->Get(xenos::Reg::RB_SURFACE_INFO)};
    r.call.indices.immediate = {};
    r.call.registers = nullptr;
    r.call.vertex_shader = r.call.pixel_shader = nullptr;
    r.call.memory = nullptr;
    draws.push_back(std::move(r));
  }
  void OnResolve(const ResolveCall& r) override { resolves.push_back(r); }
  void OnSwap(const SwapCall& s) override { swaps.push_back(s); }
  void OnEvent(const EventCall& e) override { events.push_back(e); }
  void OnMemoryWritten(uint32_t a, uint32_t s) override { memory_writes.emplace_back(a, s); }
  void OnFrameEnd(const FrameEndCall& f) override { frames.push_back(f); }
  void OnEdramSnapshot(std::span<const uint8_t>) override { ++edram_snapshots; }
  void OnGammaRamp(const format::GammaRamp&) override { ++gamma_ramps; }
};

// Memory + registers + backend + CP, wired together.
struct Rig {
  GuestMemory memory;
  RegisterFile registers;
  RecordingBackend backend;
  CommandProcessor cp;
  explicit Rig(const CommandProcessorOptions& o = {}) : cp(memory, registers, backend, o) {}
  void Run(const Pm4& s, uint32_t address = 0x100000) { cp.Execute(s.d, address, 0); }
  // Writes host-order dwords to guest memory big-endian (as the CPU would have).
  void PutBE(uint32_t address, const std::vector<uint32_t>& dwords) {
    for (size_t i = 0; i < dwords.size(); ++i) memory.StoreBE32(uint32_t(address + i * 4), dwords[i]);
  }
  size_t Count(Severity s) const {
    size_t n = 0;
    for (auto& d : cp.diagnostics()) n += d.severity == s;
    return n;
  }
  bool HasDiagnostic(const std::string& needle) const {
    for (auto& d : cp.diagnostics()) {
      if (d.message.find(needle) != std::string::npos) return true;
    }
    return false;
  }
};

}  // namespace xnt::replay::test
