// replay::Backend for the fsi path (see fsi_backend.h).
#include "xnt/vk/fsi/fsi_backend.h"

#include <algorithm>
#include <memory>

#include "output_merger_state.h"
#include "xnt/vk/translator/output_merger_interface.h"

namespace xnt::vk::fsi {

FsiBackend::FsiBackend(VulkanContext& context, FsiBackendOptions options)
    : PathBackend(context,
                  std::make_unique<FsiRenderer>(context, options.ordering, options.renderer),
                  options, "fsi"),
      ordering_(options.ordering),
      fsi_(options.fsi) {}

bool FsiBackend::ExactPolygonOffset(const replay::DrawCall& call) {
  // The cpu path's depth plane and polygon offset per triangle (docs/fsi.md "Polygon offset")
  // for filled triangle draws that test or write depth or have PA_SU_POLY_OFFSET_* on, with a
  // pixel shader or without one (a depth pre-pass, whose depths a later EQUAL test compares);
  // other draws keep the host's plane and the derivative slope and pay nothing. Lines and points
  // take only the constant term either way. The choice depends on the vertex shader alone (its
  // export count, not whether a pixel shader reads them), so that a pre-pass and its colour pass
  // with the same vertex shader take the same plane.
  const replay::RegisterFile& regs = *call.registers;
  const auto sc_mode = regs.Decode<xenos::reg::PA_SU_SC_MODE_CNTL>();
  const bool offset = sc_mode.poly_offset_front_enable || sc_mode.poly_offset_back_enable;
  const bool exact = !fsi_.derivative_slope && FilledTriangles(call) &&
                     (offset || regs.Decode<xenos::reg::RB_DEPTHCONTROL>().z_enable);
  if (!exact) return false;
  if (ExactDepthDevice(call)) return true;
  // Noted for polygon offset only, as before; a depth-tested draw without it keeps the host's
  // depth plane (docs/fsi.md says how far that is off).
  if (offset) {
    ++notes_["polygon offset slope from derivatives of depth (no geometry shader or "
             "shaderFloat64, or more interpolators than its inputs hold): may differ from the "
             "cpu path by a depth step"];
  }
  return false;
}

void FsiBackend::DrawTranslation(const replay::DrawCall& call, TranslationOptions& vs,
                                 TranslationOptions& ps) {
  const bool exact_offset = ExactPolygonOffset(call);
  vs.fsi_exact_polygon_offset = exact_offset;
  if (exact_offset) vs.vs_position_location = ExactDepthPositionLocation(call);
  ps.fsi_output_merger = ordering_ == FsiOrdering::kInterlock ? 1u : 2u;
  ps.fsi_early_depth = !fsi_.late_depth && EarlyDepthStencilWanted(call.registers->values());
  // Bilinear weights as the cpu path computes them, not the device's (docs/fsi.md).
  ps.exact_bilinear = true;
  ps.fsi_exact_polygon_offset = exact_offset;
}

void FsiBackend::OnDrawn(const TranslatedShader* ps) {
  if (ps && ps->reflection.fsi_early_depth) ++early_depth_draws_;
}

std::string FsiBackend::DumpSuffix(const TranslatedShader& t) const {
  // The early depth/stencil variant of a pixel shader is a translation of its own.
  return t.reflection.fsi_early_depth ? "_fsi_early" : "_fsi";
}

void FsiBackend::OnFrameEnd(const replay::FrameEndCall& frame) {
  renderer().tracker().set_frame(frame.frame + 1);
  PathBackend::OnFrameEnd(frame);
}

}  // namespace xnt::vk::fsi
