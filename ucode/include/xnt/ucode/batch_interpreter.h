// The pixel shader over a batch of pixels: one instruction at a time over every lane (structure of
// arrays), so the operand decoding, the swizzles and the dispatch are paid once per instruction
// per batch instead of once per pixel, and the common ALU ops run as straight loops over lanes
// that the compiler vectorises. The rules of every operation are the scalar interpreter's
// (ucode/src/alu_rules.h, one definition for both), so a lane's results are bit for bit
// those of Interpreter::Run on the same pixel.
//
// Control flow a shader takes on constants (exec, cexec on a bool, loops, calls, jumps) is the same
// for every lane. What depends on a lane's p0 is handled with lane masks where the hardware does
// the same (predicated instructions and `(p0) exec`); a jump, call or loop break on p0 that the
// live lanes take differently is reported as divergence and the caller runs those pixels through
// the scalar interpreter (shading has no side effects, so running them again is exact). A lane
// that kills keeps running, as a killed pixel does on the hardware, so that its quad still has
// derivatives; its results are discarded.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "xnt/ucode/interpreter.h"
#include "xnt/ucode/ucode.h"

namespace xnt::ucode {

// A texture unit that samples a whole batch in one call (the cpu path's), instead of one
// InterpreterCallbacks::texture_fetch call per lane.
class BatchTextureSource {
 public:
  virtual ~BatchTextureSource() = default;
  // tfetch on `slot` for lanes [0, lanes): coords[c][lane] are the fetch's x, y, z (w is 0);
  // `active[lane]` != 0 selects the lanes to sample; with `quads`, lanes 4q..4q+3 are 2x2 quads
  // (Inputs::quads), whose coarse derivatives give the level of detail. Writes the texel before
  // the swizzle to texels[lane] of every active lane, exactly what texture_fetch_gradients
  // (quads) or texture_fetch would return for that lane.
  virtual void FetchBatch(uint32_t slot, const FetchInstruction& f,
                          const std::array<const float*, 3>& coords, const uint32_t* active,
                          uint32_t lanes, bool quads, Float4* texels) = 0;
  // The setTexLOD / setGradientH / setGradientV registers of every lane.
  struct LaneRegisters {
    const float* lod = nullptr;
    std::array<const float*, 3> grad_h{}, grad_v{};
  };
  // A fetch with an explicit LOD (FetchHasExplicitLod) over the batch, each lane exactly what
  // InterpreterCallbacks::texture_fetch_explicit would return for it. False: not offered, and
  // the interpreter calls texture_fetch_explicit lane by lane.
  virtual bool FetchBatchExplicit(uint32_t /*slot*/, const FetchInstruction& /*f*/,
                                  const std::array<const float*, 3>& /*coords*/,
                                  const uint32_t* /*active*/, uint32_t /*lanes*/,
                                  const LaneRegisters& /*registers*/, Float4* /*texels*/) {
    return false;
  }
};

class BatchInterpreter {
 public:
  static constexpr uint32_t kLanes = 32;
  using Lanes = std::array<float, kLanes>;

  // What Run reads: interpolators (SoA: [register][component][lane]) and ps_param_gen.
  struct Inputs {
    uint32_t count = 0;  // lanes in use, 1..kLanes
    uint32_t interpolator_count = 0;
    std::array<std::array<Lanes, 4>, 16> interpolators{};
    int param_gen_register = -1;
    std::array<Lanes, 4> param_gen{};
    // Lanes 4q..4q+3 are the 2x2 quad (x, y), (x+1, y), (x, y+1), (x+1, y+1): texture fetches get
    // coarse derivatives (ddx from the quad's top pair, ddy from its left pair) through
    // InterpreterCallbacks::texture_fetch_gradients. Helper lanes run only to feed derivatives
    // (pixels of a quad the primitive does not cover); their results mean nothing.
    bool quads = false;
    std::array<uint8_t, kLanes> helper{};
    // getGradients and getCompTexLOD multiply the quad's x and y differences by these (a
    // resolution scale's host pixels per guest pixel when derivatives are per guest pixel).
    // Texture fetches leave the scaling to their BatchTextureSource / callbacks.
    std::array<float, 2> derivative_scale{1.0f, 1.0f};
    // When set, tfetch goes here for the whole batch (the callbacks' texture_fetch* are not used).
    BatchTextureSource* textures = nullptr;
  };

  struct Result {
    std::array<std::array<Float4, 4>, kLanes> colors{};  // [lane][oC#]
    std::array<uint8_t, kLanes> color_mask{};            // oC# written, per lane
    std::array<float, kLanes> depth{};
    std::array<uint8_t, kLanes> depth_written{};
    std::array<uint8_t, kLanes> killed{};
    bool step_limit_hit = false;
    std::vector<std::string> notes;  // as Interpreter's, once each
    // The value Result{} has, set in place: Run starts every batch from it, and a temporary
    // would be 2 KiB of colours zeroed and then copied.
    void Reset() {
      for (auto& lane : colors) lane.fill({});
      color_mask.fill(0);
      depth.fill(0.0f);
      depth_written.fill(0);
      killed.fill(0);
      step_limit_hit = false;
      notes.clear();
    }
  };

  // Keeps a reference to `shader` (a pixel shader from ucode::Decode), which must outlive this.
  explicit BatchInterpreter(const Shader& shader);
  ~BatchInterpreter();
  BatchInterpreter(const BatchInterpreter&) = delete;
  BatchInterpreter& operator=(const BatchInterpreter&) = delete;

  // Empty when the shader runs batched; otherwise what stops it (the caller uses Interpreter).
  const std::string& unsupported() const { return unsupported_; }

  // Runs `in.count` lanes. False when the lanes' control flow diverged (see above): `out` is then
  // not meaningful and the caller shades those pixels with Interpreter::Run.
  bool Run(const InterpreterConstants& constants, const Inputs& in,
           const InterpreterCallbacks& callbacks, Result& out);

 private:
  struct Machine;
  std::string unsupported_;
  std::unique_ptr<Machine> machine_;  // registers and pre-decoded operands, reused per batch
};

}  // namespace xnt::ucode
