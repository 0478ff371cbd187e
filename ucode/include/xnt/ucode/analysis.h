// Control-flow and resource analysis of decoded microcode, for the SPIR-V translator and for
// `xenotrace shader info`.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "xnt/ucode/ucode.h"

namespace xnt::ucode {

// A basic block of control-flow instructions [first_cf, last_cf].
struct BasicBlock {
  uint32_t first_cf = 0;
  uint32_t last_cf = 0;
  std::vector<uint32_t> successors;    // block indices
  std::vector<uint32_t> predecessors;  // block indices
  bool is_exit = false;                // ends the shader (exece / cexece / (p0) exece)
  bool is_return = false;              // ends with `ret`
};

struct Loop {
  uint32_t start_cf = 0;       // loop_start
  uint32_t end_cf = 0;         // loop_end
  uint32_t loop_constant = 0;  // i#
  uint32_t body_cf = 0;        // first CF of the body (loop_end's target)
  uint32_t skip_cf = 0;        // where loop_start skips to (loop_start's target)
  uint32_t depth = 0;          // nesting depth, 0 = outermost
  std::vector<uint32_t> break_cfs;     // jumps/calls from the body to outside the loop
  std::vector<uint32_t> continue_cfs;  // jumps from the body to the loop_end
};

enum class FlushKind : uint8_t { kAlloc, kSerialize, kKill, kEnd };

// A point where pending memory exports (eA/eM#) are flushed.
struct FlushPoint {
  FlushKind kind = FlushKind::kEnd;
  uint32_t cf = 0;
  uint32_t slot = 0;   // instruction slot (kSerialize / kKill), else 0
};

struct Analysis {
  std::vector<BasicBlock> blocks;
  std::vector<uint32_t> cf_block;   // block index of each CF instruction
  std::vector<Loop> loops;
  std::vector<FlushPoint> flush_points;

  uint64_t temps_read = 0;          // r0-r63
  uint64_t temps_written = 0;
  std::array<uint64_t, 4> float_constants{};  // c0-c255 read (absolute index)
  bool uses_relative_constants = false;       // c[#+a0] / c[#+aL]: any constant may be read
  bool uses_relative_temps = false;
  uint32_t bool_constants_mask[8] = {};       // b0-b255
  uint32_t loop_constants = 0;                // i0-i31
  uint32_t texture_fetch_constants = 0;       // tf0-tf31
  std::array<uint32_t, 3> vertex_fetch_constants{};  // fetch constants 0-95
  uint32_t max_temp = 0;                      // highest temp referenced (0 if none)
  bool any_temp = false;

  // VS: exports.
  uint32_t position_mask = 0;        // oPos components written
  uint32_t point_size_mask = 0;      // oPts components written
  uint32_t interpolator_mask = 0;    // o0-o15 written
  std::array<uint32_t, 16> interpolator_components{};
  // PS: outputs and inputs.
  uint32_t color_mask = 0;           // oC0-oC3 written
  bool writes_depth = false;
  uint32_t ps_input_mask = 0;        // PS temps read before written = interpolators r0-r15
  bool uses_memexport = false;       // eA / eM# written
  uint32_t memexport_data_mask = 0;  // eM0-eM4
  bool kills_pixels = false;
  bool uses_predicate = false;
  bool uses_a0 = false;              // maxa/maxas/maxasf or a0-relative operands
};

// Throws xnt::Error (naming the CF dword) for runaway control flow: unmatched loop_start /
// endloop, an endloop whose body target is not inside its loop, a loop_start whose skip target is
// not after it, targets out of range, a reachable path that runs past the last CF instruction, or
// control flow that cannot reach an exece at all.
Analysis Analyze(const Shader& shader);

std::string FlushKindName(FlushKind kind);

}  // namespace xnt::ucode
