// Name table for every register index, built once. Named registers come from
// xnt/xenos/register_table.inc (Xenia's register_table.inc); the constant areas are generated.
#include "xnt/replay/register_names.h"

#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "xnt/xenos/enums.h"
#include "xnt/xenos/registers.h"

namespace xnt::replay {

namespace {

using namespace xenos;

struct NameTable {
  std::vector<std::string> names;
  std::vector<uint8_t> named;
  std::unordered_map<std::string_view, uint32_t> by_name;

  NameTable() : names(kRegisterCount), named(kRegisterCount, 0) {
#define XNT_XENOS_REGISTER(index, name) \
  names[index] = #name;                 \
  named[index] = 1;
#include "xnt/xenos/register_table.inc"
#undef XNT_XENOS_REGISTER
    char buf[64];
    static const char kXyzw[] = "XYZW";
    for (uint32_t i = 0; i < kAluConstantDwords; ++i) {
      std::snprintf(buf, sizeof buf, "SHADER_CONSTANT_%03u_%c", i / 4, kXyzw[i % 4]);
      names[kAluConstantBase + i] = buf;
    }
    for (uint32_t i = 0; i < kFetchConstantDwords; ++i) {
      std::snprintf(buf, sizeof buf, "SHADER_CONSTANT_FETCH_%02u_%u", i / 6, i % 6);
      names[kFetchConstantBase + i] = buf;
    }
    for (uint32_t i = 0; i < kBoolConstantDwords; ++i) {
      std::snprintf(buf, sizeof buf, "SHADER_CONSTANT_BOOL_%03u_%03u", i * 32, i * 32 + 31);
      names[kBoolConstantBase + i] = buf;
    }
    for (uint32_t i = 0; i < kLoopConstantDwords; ++i) {
      std::snprintf(buf, sizeof buf, "SHADER_CONSTANT_LOOP_%02u", i);
      names[kLoopConstantBase + i] = buf;
    }
    for (uint32_t i = 0; i < kFlushFetchDwords; ++i) {
      std::snprintf(buf, sizeof buf, "SHADER_CONSTANT_FLUSH_FETCH_%u", i);
      names[kFlushFetchBase + i] = buf;
    }
    for (uint32_t i = 0; i < kRegisterCount; ++i) {
      if (names[i].empty()) {
        std::snprintf(buf, sizeof buf, "UNKNOWN_%04X", i);
        names[i] = buf;
      }
    }
    by_name.reserve(kRegisterCount);
    for (uint32_t i = 0; i < kRegisterCount; ++i) by_name.emplace(names[i], i);
  }
};

const NameTable& Table() {
  static const NameTable table;
  return table;
}

std::string_view MsaaName(MsaaSamples s) {
  switch (s) {
    case MsaaSamples::k1X: return "1X";
    case MsaaSamples::k2X: return "2X";
    case MsaaSamples::k4X: return "4X";
  }
  return "invalid";
}

std::string_view ModeControlName(uint32_t m) {
  switch (m) {
    case 0: return "ignore";
    case 4: return "color_depth";
    case 5: return "depth";
    case 6: return "copy";
  }
  return "reserved";
}

std::string_view SourceSelectName(uint32_t s) {
  switch (s) {
    case 0: return "dma";
    case 1: return "immediate";
    case 2: return "auto";
  }
  return "invalid";
}

std::string_view StencilOpName(uint32_t op) {
  static constexpr std::string_view kNames[8] = {"keep",     "zero",   "replace",  "incr_clamp",
                                                 "decr_clamp", "invert", "incr_wrap", "decr_wrap"};
  return kNames[op & 7];
}

std::string_view CopyCommandName(uint32_t c) {
  static constexpr std::string_view kNames[4] = {"raw", "convert", "constant_one", "null"};
  return kNames[c & 3];
}

std::string_view CopySampleSelectName(uint32_t s) {
  static constexpr std::string_view kNames[8] = {"0", "1", "2", "3", "01", "23", "0123", "invalid"};
  return kNames[s & 7];
}

std::string_view Endian128Name(uint32_t e) {
  static constexpr std::string_view kNames[8] = {"none",   "8in16",   "8in32",   "16in32",
                                                 "8in64", "8in128", "invalid", "invalid"};
  return kNames[e & 7];
}

std::string_view NumberFormatName(uint32_t n) {
  switch (n) {
    case 0: return "unorm";
    case 1: return "snorm";
    case 2: return "uint";
    case 3: return "sint";
    case 7: return "float";
  }
  return "invalid";
}

bool IsFloatIndex(uint32_t i) {
  switch (Reg(i)) {
    case Reg::RB_BLEND_RED:
    case Reg::RB_BLEND_GREEN:
    case Reg::RB_BLEND_BLUE:
    case Reg::RB_BLEND_ALPHA:
    case Reg::RB_FOG_COLOR_RED:
    case Reg::RB_FOG_COLOR_GREEN:
    case Reg::RB_FOG_COLOR_BLUE:
    case Reg::RB_ALPHA_REF:
    case Reg::PA_CL_VPORT_XSCALE:
    case Reg::PA_CL_VPORT_XOFFSET:
    case Reg::PA_CL_VPORT_YSCALE:
    case Reg::PA_CL_VPORT_YOFFSET:
    case Reg::PA_CL_VPORT_ZSCALE:
    case Reg::PA_CL_VPORT_ZOFFSET:
    case Reg::VGT_HOS_MAX_TESS_LEVEL:
    case Reg::VGT_HOS_MIN_TESS_LEVEL:
    case Reg::PA_CL_GB_VERT_CLIP_ADJ:
    case Reg::PA_CL_GB_VERT_DISC_ADJ:
    case Reg::PA_CL_GB_HORZ_CLIP_ADJ:
    case Reg::PA_CL_GB_HORZ_DISC_ADJ:
      return true;
    default:
      break;
  }
  // PA_SU_POLY_OFFSET_* .. PA_CL_UCP_5_W are all floats (0x2380-0x239F).
  if (i >= 0x2380 && i <= 0x239F) return true;
  return i >= kAluConstantBase && i < kAluConstantBase + kAluConstantDwords;
}

}  // namespace

std::string_view RegisterName(uint32_t index) {
  if (index >= kRegisterCount) return "OUT_OF_RANGE";
  return Table().names[index];
}

std::optional<uint32_t> FindRegister(std::string_view name) {
  const auto& t = Table();
  auto it = t.by_name.find(name);
  if (it == t.by_name.end()) return std::nullopt;
  return it->second;
}

bool IsNamedRegister(uint32_t index) { return index < kRegisterCount && Table().named[index]; }

bool IsFloatRegister(uint32_t index) { return index < kRegisterCount && IsFloatIndex(index); }

namespace {

// The render backend's registers (RB_*): targets, blending, depth/stencil, copies.
bool DecodeRenderBackend(uint32_t index, uint32_t v, DecodedRegister& out) {
  switch (Reg(index)) {
    case Reg::RB_SURFACE_INFO: {
      auto r = reg::RB_SURFACE_INFO::Decode(v);
      out.Add("surface_pitch", r.surface_pitch);
      out.Add("msaa_samples", uint32_t(r.msaa_samples), MsaaName(r.msaa_samples));
      out.Add("hiz_pitch", r.hiz_pitch);
      return true;
    }
    case Reg::RB_COLOR_INFO:
    case Reg::RB_COLOR1_INFO:
    case Reg::RB_COLOR2_INFO:
    case Reg::RB_COLOR3_INFO: {
      auto r = reg::RB_COLOR_INFO::Decode(v);
      out.Add("color_base", r.color_base);
      if (r.color_base_bit_11) out.Add("color_base_bit_11", 1);
      out.Add("color_format", uint32_t(r.color_format),
              ColorRenderTargetFormatName(uint32_t(r.color_format)));
      out.Add("color_exp_bias", r.color_exp_bias);
      return true;
    }
    case Reg::RB_DEPTH_INFO: {
      auto r = reg::RB_DEPTH_INFO::Decode(v);
      out.Add("depth_base", r.depth_base);
      if (r.depth_base_bit_11) out.Add("depth_base_bit_11", 1);
      out.Add("depth_format", uint32_t(r.depth_format),
              DepthRenderTargetFormatName(uint32_t(r.depth_format)));
      return true;
    }
    case Reg::RB_COLOR_MASK: {
      auto r = reg::RB_COLOR_MASK::Decode(v);
      static constexpr std::string_view kRt[4] = {"rt0", "rt1", "rt2", "rt3"};
      for (uint32_t i = 0; i < 4; ++i) out.Add(kRt[i], r.rt_mask(i));
      return true;
    }
    case Reg::RB_BLENDCONTROL0:
    case Reg::RB_BLENDCONTROL1:
    case Reg::RB_BLENDCONTROL2:
    case Reg::RB_BLENDCONTROL3: {
      auto r = reg::RB_BLENDCONTROL::Decode(v);
      out.Add("color_srcblend", uint32_t(r.color_srcblend), BlendFactorName(uint32_t(r.color_srcblend)));
      out.Add("color_comb_fcn", uint32_t(r.color_comb_fcn), BlendOpName(uint32_t(r.color_comb_fcn)));
      out.Add("color_destblend", uint32_t(r.color_destblend), BlendFactorName(uint32_t(r.color_destblend)));
      out.Add("alpha_srcblend", uint32_t(r.alpha_srcblend), BlendFactorName(uint32_t(r.alpha_srcblend)));
      out.Add("alpha_comb_fcn", uint32_t(r.alpha_comb_fcn), BlendOpName(uint32_t(r.alpha_comb_fcn)));
      out.Add("alpha_destblend", uint32_t(r.alpha_destblend), BlendFactorName(uint32_t(r.alpha_destblend)));
      return true;
    }
    case Reg::RB_DEPTHCONTROL: {
      auto r = reg::RB_DEPTHCONTROL::Decode(v);
      out.Add("stencil_enable", r.stencil_enable);
      out.Add("z_enable", r.z_enable);
      out.Add("z_write_enable", r.z_write_enable);
      out.Add("zfunc", uint32_t(r.zfunc), CompareFunctionName(uint32_t(r.zfunc)));
      out.Add("backface_enable", r.backface_enable);
      out.Add("stencilfunc", uint32_t(r.stencilfunc), CompareFunctionName(uint32_t(r.stencilfunc)));
      out.Add("stencilfail", uint32_t(r.stencilfail), StencilOpName(uint32_t(r.stencilfail)));
      out.Add("stencilzpass", uint32_t(r.stencilzpass), StencilOpName(uint32_t(r.stencilzpass)));
      out.Add("stencilzfail", uint32_t(r.stencilzfail), StencilOpName(uint32_t(r.stencilzfail)));
      out.Add("stencilfunc_bf", uint32_t(r.stencilfunc_bf), CompareFunctionName(uint32_t(r.stencilfunc_bf)));
      out.Add("stencilfail_bf", uint32_t(r.stencilfail_bf), StencilOpName(uint32_t(r.stencilfail_bf)));
      out.Add("stencilzpass_bf", uint32_t(r.stencilzpass_bf), StencilOpName(uint32_t(r.stencilzpass_bf)));
      out.Add("stencilzfail_bf", uint32_t(r.stencilzfail_bf), StencilOpName(uint32_t(r.stencilzfail_bf)));
      return true;
    }
    case Reg::RB_STENCILREFMASK:
    case Reg::RB_STENCILREFMASK_BF: {
      auto r = reg::RB_STENCILREFMASK::Decode(v);
      out.Add("stencilref", r.stencilref);
      out.Add("stencilmask", r.stencilmask);
      out.Add("stencilwritemask", r.stencilwritemask);
      return true;
    }
    case Reg::RB_MODECONTROL: {
      auto r = reg::RB_MODECONTROL::Decode(v);
      out.Add("edram_mode", uint32_t(r.edram_mode), ModeControlName(uint32_t(r.edram_mode)));
      return true;
    }
    case Reg::RB_COLORCONTROL: {
      auto r = reg::RB_COLORCONTROL::Decode(v);
      out.Add("alpha_func", uint32_t(r.alpha_func), CompareFunctionName(uint32_t(r.alpha_func)));
      out.Add("alpha_test_enable", r.alpha_test_enable);
      out.Add("alpha_to_mask_enable", r.alpha_to_mask_enable);
      return true;
    }
    case Reg::RB_COPY_CONTROL: {
      auto r = reg::RB_COPY_CONTROL::Decode(v);
      out.Add("copy_src_select", r.copy_src_select, r.copy_src_select == 4 ? "depth" : "color");
      out.Add("copy_sample_select", uint32_t(r.copy_sample_select),
              CopySampleSelectName(uint32_t(r.copy_sample_select)));
      out.Add("color_clear_enable", r.color_clear_enable);
      out.Add("depth_clear_enable", r.depth_clear_enable);
      out.Add("copy_command", uint32_t(r.copy_command), CopyCommandName(uint32_t(r.copy_command)));
      return true;
    }
    case Reg::RB_COPY_DEST_PITCH: {
      auto r = reg::RB_COPY_DEST_PITCH::Decode(v);
      out.Add("copy_dest_pitch", r.copy_dest_pitch);
      out.Add("copy_dest_height", r.copy_dest_height);
      return true;
    }
    case Reg::RB_COPY_DEST_INFO: {
      auto r = reg::RB_COPY_DEST_INFO::Decode(v);
      out.Add("copy_dest_endian", uint32_t(r.copy_dest_endian), Endian128Name(uint32_t(r.copy_dest_endian)));
      out.Add("copy_dest_array", r.copy_dest_array);
      out.Add("copy_dest_slice", r.copy_dest_slice);
      out.Add("copy_dest_format", uint32_t(r.copy_dest_format),
              TextureFormatName(uint32_t(r.copy_dest_format)));
      out.Add("copy_dest_number", uint32_t(r.copy_dest_number),
              NumberFormatName(uint32_t(r.copy_dest_number)));
      out.Add("copy_dest_exp_bias", r.copy_dest_exp_bias);
      out.Add("copy_dest_swap", r.copy_dest_swap);
      return true;
    }
    case Reg::RB_DEPTH_CLEAR: {
      auto r = reg::RB_DEPTH_CLEAR::Decode(v);
      out.Add("depth", r.depth);
      out.Add("stencil", r.stencil);
      return true;
    }
    default:
      return false;
  }
}

// The primitive assembly and scan converter's (PA_*): window, scissors, viewport control, culling.
bool DecodeScanConverter(uint32_t index, uint32_t v, DecodedRegister& out) {
  switch (Reg(index)) {
    case Reg::PA_SC_WINDOW_OFFSET: {
      auto r = reg::PA_SC_WINDOW_OFFSET::Decode(v);
      out.Add("window_x_offset", r.window_x_offset);
      out.Add("window_y_offset", r.window_y_offset);
      return true;
    }
    case Reg::PA_SC_WINDOW_SCISSOR_TL: {
      auto r = reg::PA_SC_WINDOW_SCISSOR_TL::Decode(v);
      out.Add("tl_x", r.tl_x);
      out.Add("tl_y", r.tl_y);
      out.Add("window_offset_disable", r.window_offset_disable);
      return true;
    }
    case Reg::PA_SC_WINDOW_SCISSOR_BR: {
      auto r = reg::PA_SC_WINDOW_SCISSOR_BR::Decode(v);
      out.Add("br_x", r.br_x);
      out.Add("br_y", r.br_y);
      return true;
    }
    case Reg::PA_SC_SCREEN_SCISSOR_TL: {
      auto r = reg::PA_SC_SCREEN_SCISSOR_TL::Decode(v);
      out.Add("tl_x", r.tl_x);
      out.Add("tl_y", r.tl_y);
      return true;
    }
    case Reg::PA_SC_SCREEN_SCISSOR_BR: {
      auto r = reg::PA_SC_SCREEN_SCISSOR_BR::Decode(v);
      out.Add("br_x", r.br_x);
      out.Add("br_y", r.br_y);
      return true;
    }
    case Reg::PA_CL_VTE_CNTL: {
      auto r = reg::PA_CL_VTE_CNTL::Decode(v);
      out.Add("vport_x_scale_ena", r.vport_x_scale_ena);
      out.Add("vport_x_offset_ena", r.vport_x_offset_ena);
      out.Add("vport_y_scale_ena", r.vport_y_scale_ena);
      out.Add("vport_y_offset_ena", r.vport_y_offset_ena);
      out.Add("vport_z_scale_ena", r.vport_z_scale_ena);
      out.Add("vport_z_offset_ena", r.vport_z_offset_ena);
      out.Add("vtx_xy_fmt", r.vtx_xy_fmt);
      out.Add("vtx_z_fmt", r.vtx_z_fmt);
      out.Add("vtx_w0_fmt", r.vtx_w0_fmt);
      return true;
    }
    case Reg::PA_SU_SC_MODE_CNTL: {
      auto r = reg::PA_SU_SC_MODE_CNTL::Decode(v);
      out.Add("cull_front", r.cull_front);
      out.Add("cull_back", r.cull_back);
      out.Add("face", r.face, r.face ? "cw" : "ccw");
      out.Add("poly_mode", uint32_t(r.poly_mode));
      out.Add("polymode_front_ptype", uint32_t(r.polymode_front_ptype));
      out.Add("polymode_back_ptype", uint32_t(r.polymode_back_ptype));
      out.Add("poly_offset_front_enable", r.poly_offset_front_enable);
      out.Add("poly_offset_back_enable", r.poly_offset_back_enable);
      out.Add("poly_offset_para_enable", r.poly_offset_para_enable);
      out.Add("msaa_enable", r.msaa_enable);
      out.Add("vtx_window_offset_enable", r.vtx_window_offset_enable);
      out.Add("provoking_vtx_last", r.provoking_vtx_last);
      out.Add("persp_corr_dis", r.persp_corr_dis);
      out.Add("multi_prim_ib_ena", r.multi_prim_ib_ena);
      out.Add("quad_order_enable", r.quad_order_enable);
      return true;
    }
    default:
      return false;
  }
}

// The vertex grouper's and the sequencer's (VGT_*, SQ_*): draws, index DMA, shader programs.
bool DecodeVertexAndSequencer(uint32_t index, uint32_t v, DecodedRegister& out) {
  switch (Reg(index)) {
    case Reg::VGT_DRAW_INITIATOR: {
      auto r = reg::VGT_DRAW_INITIATOR::Decode(v);
      out.Add("prim_type", uint32_t(r.prim_type), PrimitiveTypeName(uint32_t(r.prim_type)));
      out.Add("source_select", uint32_t(r.source_select), SourceSelectName(uint32_t(r.source_select)));
      out.Add("major_mode", uint32_t(r.major_mode));
      out.Add("index_size", uint32_t(r.index_size), r.index_size == IndexFormat::kInt32 ? "int32" : "int16");
      out.Add("not_eop", r.not_eop);
      out.Add("num_indices", r.num_indices);
      return true;
    }
    case Reg::VGT_DMA_SIZE: {
      auto r = reg::VGT_DMA_SIZE::Decode(v);
      out.Add("num_words", r.num_words);
      out.Add("swap_mode", uint32_t(r.swap_mode), EndianName(r.swap_mode));
      return true;
    }
    case Reg::SQ_PROGRAM_CNTL: {
      auto r = reg::SQ_PROGRAM_CNTL::Decode(v);
      out.Add("vs_num_reg", r.vs_num_reg);
      out.Add("ps_num_reg", r.ps_num_reg);
      out.Add("vs_resource", r.vs_resource);
      out.Add("ps_resource", r.ps_resource);
      out.Add("param_gen", r.param_gen);
      out.Add("gen_index_pix", r.gen_index_pix);
      out.Add("vs_export_count", r.vs_export_count);
      out.Add("vs_export_mode", uint32_t(r.vs_export_mode));
      out.Add("ps_export_mode", r.ps_export_mode);
      out.Add("gen_index_vtx", r.gen_index_vtx);
      return true;
    }
    case Reg::SQ_CONTEXT_MISC: {
      auto r = reg::SQ_CONTEXT_MISC::Decode(v);
      out.Add("inst_pred_optimize", r.inst_pred_optimize);
      out.Add("sc_output_screen_xy", r.sc_output_screen_xy);
      out.Add("sc_sample_cntl", uint32_t(r.sc_sample_cntl));
      out.Add("param_gen_pos", r.param_gen_pos);
      out.Add("perfcounter_ref", r.perfcounter_ref);
      out.Add("yeild_optimize", r.yeild_optimize);
      out.Add("tx_cache_sel", r.tx_cache_sel);
      return true;
    }
    case Reg::SQ_VS_CONST:
    case Reg::SQ_PS_CONST: {
      auto r = reg::SQ_CONST_PARTITION::Decode(v);
      out.Add("base", r.base);
      out.Add("size", r.size);
      return true;
    }
    case Reg::VGT_OUTPUT_PATH_CNTL:
      out.Add("path_select", Bits(v, 0, 2));
      return true;
    case Reg::VGT_HOS_CNTL:
      out.Add("tess_mode", Bits(v, 0, 2));
      return true;
    default:
      return false;
  }
}

}  // namespace

bool DecodeRegisterFields(uint32_t index, uint32_t v, DecodedRegister& out) {
  out.count = 0;
  if (index >= kLoopConstantBase && index < kLoopConstantBase + kLoopConstantDwords) {
    auto l = LoopConstant::Decode(v);
    out.Add("count", l.count);
    out.Add("start", l.start);
    out.Add("step", l.step);
    return true;
  }
  return DecodeRenderBackend(index, v, out) || DecodeScanConverter(index, v, out) ||
         DecodeVertexAndSequencer(index, v, out);
}

}  // namespace xnt::replay
