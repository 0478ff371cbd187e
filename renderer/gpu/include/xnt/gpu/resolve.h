// Resolves (RB_MODECONTROL edram_mode = copy): which render-target rectangle goes where in guest
// memory, and the resolve engine that copies it from the EDRAM's guest bits to guest memory.
//
// The rectangle follows Xenia's draw_util.cc GetResolveInfo: Direct3D 9 always puts the three
// corners of the resolve rectangle in vertex fetch constant 0 as x,y float pairs (guest memory,
// swapped per the fetch constant's endian field); the half-pixel offset Direct3D subtracted is
// added back when PA_SU_VTX_CNTL pix_center is 0; corners are rounded with the top-left rule
// (16.8 fixed point, (v + 127) >> 8); the window offset applies when PA_SU_SC_MODE_CNTL
// vtx_window_offset_enable is set; the window scissor clips; the result is aligned outwards to
// 8 pixels (kResolveAlignmentPixels) and clamped to the surface pitch.
//
// The engine (ResolveCopy) is backend-free: it reads the source surface's samples from an
// edram::Edram that holds the guest bits, so the fbo path (after EdramCache::Snapshot) and a
// future cpu path share it. Behaviour, per Xenia's resolve shaders (shaders/resolve.xesli,
// resolve_full_*bpp.xesli, pixel_formats.xesli) and draw_util.cc:
// - Sample selection is sanitised like SanitizeCopySampleSelect: 1x always sample 0; 2x keeps
//   0, 1 or the 0+1 average (2 -> 0, 3 -> 1, 23/0123 -> 01); 4x any sample, 01, 23 or 0123;
//   depth is never averaged (01/0123 -> 0, 23 -> 2).
// - Samples are addressed in sample space as the hardware numbers them: sample s of a pixel is
//   sample column (s >> 1) & 1 and sample row s & 1 (Xenia edram.xesli XeEdramOffsetInts), so at
//   4x "01" averages the left column and "23" the right one.
// - "Fast" copy (raw guest bits; endian swap and red/blue swap on the bits) for depth, and for
//   colour with no exponent bias, a single sample and a bitwise-equivalent destination format
//   (IsColorResolveFormatBitwiseEquivalent): 8_8_8_8(_GAMMA) -> 8_8_8_8 / 8_8_8_8_A /
//   8_8_8_8_AS_16_16_16_16; 2_10_10_10(_AS_10_10_10_10) -> 2_10_10_10(_AS_16_16_16_16);
//   16_16_FLOAT, 16_16_16_16_FLOAT, 32_FLOAT, 32_32_FLOAT -> the same-named texture format.
// - "Full" copy otherwise: samples unpacked to float (edram::UnpackColor; k_8_8_8_8_GAMMA is
//   read as plain unorm, the gamma bits are copied, as Xenia does; channels a format lacks read
//   as 0), summed in float in the hardware order (s0 + s1, then + s2 + s3; of two NaNs the
//   earlier one is kept, quieted, and inf - inf gives 0xFFC00000, whatever the compiler's
//   operand order or the CPU's default NaN), multiplied by
//   2^exp_bias (halved per averaging step), red/blue swapped, then packed to the destination
//   with the Direct3D 11 rules (saturate, * max + 0.5, truncate; half floats round to nearest
//   even). Fixed-point destinations are written unsigned whatever copy_dest_number says.
// - Destinations: 8bpp k_8 / k_8_A / k_8_B (the red channel, or blue with swap); 16bpp
//   k_1_5_5_5, k_5_6_5, k_6_5_5, k_8_8, k_4_4_4_4, k_16, k_16_FLOAT; 32bpp k_8_8_8_8(_A,
//   _AS_16_16_16_16), k_2_10_10_10(_AS_16_16_16_16), k_10_11_11(_AS_16_16_16_16),
//   k_11_11_10(_AS_16_16_16_16), k_16_16, k_16_16_FLOAT, k_32_FLOAT; 64bpp k_16_16_16_16,
//   k_16_16_16_16_FLOAT, k_32_32_FLOAT; 128bpp k_32_32_32_32_FLOAT; depth always k_24_8 /
//   k_24_8_FLOAT (32-bit dwords, depth << 8 | stencil). Any other format is reported.
// - Endian128 swaps act on each 16-byte block the hardware writes: 8in16, 8in32, 16in32, 8in64
//   and 8in128 move byte i of the block to i ^ 1, 3, 2, 7, 15 (Xenia endian.xesli). 8bpp
//   destinations are not swapped (resolve_full_8bpp stores without a swap).
// - Layout: 32x32-tiled 2D (TiledOffset2D) or, with copy_dest_array, the tiled 3D layout at
//   slice copy_dest_slice (texture_util.cc GetTiledOffset3D); pixel (x, y) of the source lands
//   at dest_base + offset(x, y) (Direct3D moves the base so that (0, 0) is the surface origin).
//   The Xenos register has no linear bit (bit 3 is "array"; on Adreno a2xx the same bit is
//   LINEAR); `dest_linear` selects a linear layout (rows aligned to 256 bytes, LinearOffset2D)
//   for callers that need it, registers never set it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "xnt/gpu/register_values.h"
#include "xnt/gpu/edram.h"
#include "xnt/gpu/guest_access.h"
#include "xnt/xenos/enums.h"

namespace xnt::gpu {

struct ResolveInfo {
  // Rectangle in render-target pixels, [x0, x1) x [y0, y1); may be empty.
  int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  uint32_t source_select = 0;  // 0-3 colour target, 4 depth
  bool copy = false;           // copy_command raw/convert (not null / constant one)
  bool color_clear = false;
  bool depth_clear = false;
  uint32_t color_clear_value = 0;     // RB_COLOR_CLEAR (k_8_8_8_8: R in bits 7:0)
  uint32_t color_clear_value_lo = 0;  // RB_COLOR_CLEAR_LO (low dword of 64bpp clears)
  uint32_t depth_clear_value = 0;     // RB_DEPTH_CLEAR (depth 31:8, stencil 7:0)
  uint32_t surface_pitch = 0;
  uint32_t msaa_samples = 0;  // RB_SURFACE_INFO msaa_samples (0 = 1x)
  uint32_t color_base = 0;
  uint32_t color_format = 0;
  uint32_t depth_base = 0;
  uint32_t depth_format = 0;
  // RB_COPY_CONTROL copy_sample_select as written and after sanitising (see above).
  uint32_t sample_select_raw = 0;
  xenos::CopySampleSelect sample_select = xenos::CopySampleSelect::k0;
  // Destination.
  uint32_t dest_base = 0;
  uint32_t dest_pitch = 0;
  uint32_t dest_height = 0;
  xenos::Endian128 dest_endian = xenos::Endian128::kNone;
  bool dest_array = false;
  uint32_t dest_slice = 0;
  // As written; for depth sources the engine uses k_24_8 / k_24_8_FLOAT (dest_format_effective).
  xenos::TextureFormat dest_format = xenos::TextureFormat::k_8_8_8_8;
  xenos::SurfaceNumberFormat dest_number = xenos::SurfaceNumberFormat::kUnsignedRepeatingFraction;
  int32_t dest_exp_bias = 0;
  bool dest_swap = false;
  bool dest_linear = false;  // never set from registers (see above)
  // Resolution scaling: the EDRAM's scale (its tiles hold 80S x 16T samples) and the host
  // pixels one unit of the rectangle steps over. A scaled copy uses the rectangle and the
  // destination multiplied by the scale with step 1; the 1x guest copy keeps guest units with
  // step = scale, which reads the top-left host pixel of every guest pixel (point downsampling).
  uint32_t scale_x = 1, scale_y = 1;
  uint32_t step_x = 1, step_y = 1;
  // Non-empty when the copy part cannot be done (clears still can).
  std::string unsupported;
  // Remarks about sanitised fields (e.g. a sample select the sample count does not have).
  std::string note;

  bool empty() const { return x1 <= x0 || y1 <= y0; }
  bool is_depth() const { return source_select == 4; }
  xenos::TextureFormat dest_format_effective() const;
  // The copied surface as the EDRAM model addresses it.
  edram::Surface SourceSurface() const;
};

ResolveInfo ComputeResolveInfo(RegisterValues regs, const GuestMemoryAccess& memory);

// Bytes per destination pixel of a resolvable format, 0 when the format is not one a resolve
// can write.
uint32_t ResolveDestBytesPerPixel(xenos::TextureFormat format);
// Whether the copy keeps the raw guest bits (the "fast" path above).
bool ResolveIsBitwiseCopy(const ResolveInfo& info);

// Bytes XORed into the low address bits of a 16-byte block by a 128-bit endian swap (8in16 swaps
// bytes of halfwords, 8in32 of dwords, 16in32 halfwords of dwords, 8in64 / 8in128 reverse the
// bytes of 8 / 16); nullopt for an encoding the hardware does not define.
std::optional<uint32_t> Endian128XorMask(xenos::Endian128 e);
xenos::CopySampleSelect SanitizeCopySampleSelect(uint32_t raw, xenos::MsaaSamples msaa,
                                                 bool is_depth);

// The resolved (pre-packing) value of one destination pixel of a colour source: the samples
// unpacked, averaged, biased and red/blue swapped. Exposed for tests.
std::array<float, 4> ResolveColorPixel(const ResolveInfo& info, const edram::Edram& edram,
                                       uint32_t x, uint32_t y);
// Packs one resolved pixel into `format` (1-16 bytes, little-endian, before the endian swap).
// Returns the byte count.
uint32_t PackResolveDest(xenos::TextureFormat format, const std::array<float, 4>& rgba,
                         uint8_t out[16]);

struct ResolveCopyResult {
  uint64_t pixels = 0;
  uint64_t bytes_written = 0;
  uint32_t dest_start = 0;  // lowest guest address written
  uint32_t dest_end = 0;    // one past the highest
  bool bitwise = false;     // fast path
};

// Copies info's rectangle from `edram` (guest bits of the source surface, all samples) to guest
// memory through memory.read / memory.write (read-modify-write of the touched ranges, in bands
// of at most 32 rows, so no allocation exceeds a few bands). Throws xnt::Error when info is
// not copyable (`unsupported`) or the destination leaves the 512 MiB physical space.
// `threads` host threads compute the bands' pixels; guest memory is written band by band in
// order on the calling thread, so the bytes (and any error) are the same for every count.
ResolveCopyResult ResolveCopy(const ResolveInfo& info, const edram::Edram& edram,
                              const GuestMemoryAccess& memory, uint32_t threads = 1);

// Tiled 3D offset (texture_util.cc GetTiledOffset3D, reconstructed by Xenia from XGRAPHICS):
// byte offset of block (x, y, z) in a volume of pitch x height blocks (both rounded up to 32).
int32_t TiledOffset3D(int32_t x, int32_t y, int32_t z, uint32_t pitch_blocks,
                      uint32_t height_blocks, uint32_t bpb_log2);

// The guest dword for one 8-bit RGBA pixel after red/blue swap and exponent bias (before the
// endian swap); the k_8_8_8_8 -> k_8_8_8_8 case of the full path.
uint32_t PackResolveColor(uint32_t host_rgba, bool swap_red_blue, int32_t exp_bias);

// The clears a resolve asks for (RB_COPY_CONTROL): calls clear(surface, guest bits) for the
// colour surface (64bpp formats take RB_COLOR_CLEAR as the high dword) and then the depth
// surface, each at the resolution scale. ApplyResolveClears (CPU) and the fsi path's compute
// clear both take their surfaces and values from here.
void ForEachResolveClear(const ResolveInfo& info, RegisterValues regs, uint32_t scale_x,
                         uint32_t scale_y,
                         const std::function<void(const edram::Surface&, uint64_t)>& clear);

// The clears a resolve asks for, written into the EDRAM model's guest bits at the resolution
// scale: every path that keeps EDRAM as guest bits on the CPU uses this. Bands of 32 rows are
// filled on `threads` threads (the bytes do not depend on the count).
void ApplyResolveClears(const ResolveInfo& info, RegisterValues regs, uint32_t scale_x,
                        uint32_t scale_y, edram::Edram& edram, uint32_t threads = 1);

}  // namespace xnt::gpu
