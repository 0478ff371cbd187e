// gpu/unmodelled_state.h: the draw state every path names as not implemented, from registers
// set by hand (PA_CL_CLIP_CNTL ucp_ena bits 0..5, clip_disable bit 16).
#include <gtest/gtest.h>

#include <vector>

#include "hand_registers.h"
#include "xnt/gpu/unmodelled_state.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {
namespace {

using xenos::Reg;

using Regs = test::HandRegisters;

// What Direct3D writes (the Xenia oracle traces): clipping on, D3D clip space, no user planes,
// the index range 0..0xFFFFFF.
Regs Direct3DDefaults() {
  Regs r;
  r.Set(Reg::PA_CL_CLIP_CNTL, 0x00080000u);
  r.Set(Reg::VGT_MIN_VTX_INDX, 0);
  r.Set(Reg::VGT_MAX_VTX_INDX, 0x00FFFFFFu);
  return r;
}

TEST(UnmodelledState, NothingForTheDirect3DDefaultsOrAnUnprogrammedTrace) {
  EXPECT_TRUE(UnmodelledStateNotes(Direct3DDefaults().span()).empty());
  EXPECT_TRUE(UnmodelledStateNotes(Regs().span()).empty());  // every register 0
}

TEST(UnmodelledState, UserClipPlanesAreNamedOnlyWithClippingOn) {
  Regs r = Direct3DDefaults();
  r.Set(Reg::PA_CL_CLIP_CNTL, 0x00080000u | 0x05u);  // planes 0 and 2
  const auto notes = UnmodelledStateNotes(r.span());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("user clip planes (PA_CL_CLIP_CNTL ucp_ena 0x05) not implemented"),
            std::string::npos)
      << notes[0];
  r.Set(Reg::PA_CL_CLIP_CNTL, 0x00090000u | 0x05u);  // clip_disable: no clipping at all
  EXPECT_TRUE(UnmodelledStateNotes(r.span()).empty());
}

TEST(UnmodelledState, AnIndexRangeIsNotNamed) {
  // The clamp is modelled (gpu/vertex_index.h), so a narrow range says nothing.
  Regs r = Direct3DDefaults();
  r.Set(Reg::VGT_MIN_VTX_INDX, 4);
  r.Set(Reg::VGT_MAX_VTX_INDX, 99);
  EXPECT_TRUE(UnmodelledStateNotes(r.span()).empty());
}

}  // namespace
}  // namespace xnt::gpu
