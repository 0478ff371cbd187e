// Text and JSON-lines rendering of a trace for `xenotrace dump`. Formatting goes straight into a
// growing buffer with snprintf (no iostreams, no per-line allocation) so decoding stays well above
// a million packets per second.
#include "xnt/replay/dump.h"

#include "xnt/ucode/disasm.h"

#include <bit>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "xnt/base/enum_names.h"
#include "xnt/base/json.h"
#include "xnt/replay/register_names.h"

namespace xnt::replay {

namespace {

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void Appendf(std::string& out, const char* fmt, ...) {
  char buf[1024];
  va_list args;
  va_start(args, fmt);
  int n = std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  if (n > 0) out.append(buf, std::min<size_t>(size_t(n), sizeof buf - 1));
}

// Fast paths for the per-packet and per-register lines: snprintf costs more than the decoding.
void AppendHex8(std::string& out, uint32_t v) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  char b[10] = {'0', 'x'};
  for (int i = 0; i < 8; ++i) b[2 + i] = kDigits[(v >> (28 - 4 * i)) & 0xF];
  out.append(b, 10);
}

void AppendDec(std::string& out, int64_t v) {
  char b[24];
  int n = 0;
  uint64_t u = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  do {
    b[n++] = char('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0) out += '-';
  while (n) out += b[--n];
}

// A fixed-size line under construction: appends without capacity checks on the std::string, one
// append at the end. Overlong input is truncated (lines here are a few hundred bytes at most).
class LineBuf {
 public:
  void Put(char c) {
    if (p_ < end_) *p_++ = c;
  }
  void Put(std::string_view s) {
    size_t n = std::min<size_t>(s.size(), size_t(end_ - p_));
    std::memcpy(p_, s.data(), n);
    p_ += n;
  }
  void Hex8(uint32_t v) {
    static constexpr char kDigits[] = "0123456789ABCDEF";
    if (end_ - p_ < 10) return;
    *p_++ = '0';
    *p_++ = 'x';
    for (int i = 0; i < 8; ++i) *p_++ = kDigits[(v >> (28 - 4 * i)) & 0xF];
  }
  void Dec(int64_t v) {
    if (end_ - p_ < 21) return;
    auto r = std::to_chars(p_, end_, v);
    p_ = r.ptr;
  }
  void Float(float f) {
    if (end_ - p_ < 32) return;
    auto r = std::to_chars(p_, end_, f);
    p_ = r.ptr;
  }
  void Pad(size_t from, size_t width) {
    while (size_t(p_ - buf_) < from + width && p_ < end_) *p_++ = ' ';
  }
  size_t size() const { return size_t(p_ - buf_); }
  void AppendTo(std::string& out) const { out.append(buf_, size()); }

 private:
  char buf_[2048];
  char* p_ = buf_;
  char* end_ = buf_ + sizeof buf_;
};

void AppendPadded(std::string& out, std::string_view s, size_t width) {
  out.append(s);
  if (s.size() < width) out.append(width - s.size(), ' ');
}

void AppendOffset(std::string& out, const TraceOffset& o) {
  out += '@';
  AppendDec(out, int64_t(o.record));
  out += '+';
  AppendDec(out, o.dword);
  if (o.ib_depth) {
    out += "/ib";
    AppendDec(out, o.ib_depth);
    out += '+';
    AppendDec(out, o.ib_dword);
  }
}

void AppendOffsetJson(std::string& out, const TraceOffset& o) {
  out += "\"offset\":\"";
  AppendOffset(out, o);
  out += "\",\"record\":";
  AppendDec(out, int64_t(o.record));
  out += ",\"dword\":";
  AppendDec(out, o.dword);
  out += ",\"ib_depth\":";
  AppendDec(out, o.ib_depth);
  out += ",\"ib_dword\":";
  AppendDec(out, o.ib_dword);
}

const char* MemoryKindName(format::MemoryEventKind k) {
  static constexpr const char* kNames[] = {"initial_snapshot", "gpu_read", "cpu_write", "gpu_write"};
  return EnumName(k, kNames);
}

const char* ModeName(xenos::ModeControl m) {
  switch (m) {
    case xenos::ModeControl::kIgnore: return "ignore";
    case xenos::ModeControl::kColorDepth: return "color_depth";
    case xenos::ModeControl::kDepth: return "depth";
    case xenos::ModeControl::kCopy: return "copy";
  }
  return "reserved";
}

const char* SourceName(xenos::SourceSelect s) {
  static constexpr const char* kNames[] = {"dma", "immediate", "auto"};
  return EnumName(s, kNames, "invalid");
}

const char* MsaaText(xenos::MsaaSamples s) {
  static constexpr const char* kNames[] = {"1X", "2X", "4X"};
  return EnumName(s, kNames, "invalid");
}

std::string OpcodeText(uint32_t opcode) {
  auto name = xenos::OpcodeName(opcode);
  if (!name.empty()) return std::string(name);
  char buf[24];
  std::snprintf(buf, sizeof buf, "UNKNOWN_%02X", opcode);
  return buf;
}

}  // namespace

DumpPrinter::DumpPrinter(const DumpOptions& options, Sink sink)
    : options_(options), sink_(std::move(sink)), in_segment_mode_(options.draw.has_value()) {
  out_.reserve(1 << 17);
}

DumpPrinter::~DumpPrinter() = default;

void DumpPrinter::Attach(TracePlayer& player) {
  player_ = &player;
  player.set_observer(this);
}

void DumpPrinter::Run(TracePlayer& player, format::Reader& reader) {
  player.Play(reader, options_.frame ? options_.frame : options_.frames.Last(),
              [this](uint64_t index, const format::Record& r) { return OnRecord(index, r); });
  Flush();
}

void DumpPrinter::Flush() {
  if (!out_.empty()) {
    sink_(out_);
    out_.clear();
  }
}

bool DumpPrinter::InFrame() const {
  const uint64_t frame = player_ ? player_->command_processor().frame() : 0;
  if (!options_.frames.all() && !options_.frames.Contains(frame)) return false;
  return !options_.frame || (player_ && frame == *options_.frame);
}

void DumpPrinter::Line(std::string_view text) {
  Target().append(text);
  LineDone();
}

void DumpPrinter::LineDone() {
  if (!in_segment_mode_ && out_.size() > (1 << 16)) Flush();
}

void DumpPrinter::EndDrawSegment(uint32_t draw_index) {
  if (!in_segment_mode_) return;
  if (draw_index == *options_.draw) {
    out_.append(segment_);
    ++draws_printed_;
  }
  segment_.clear();
}

bool DumpPrinter::OnRecord(uint64_t index, const format::Record& record) {
  if (!InFrame()) return true;
  std::string s;
  std::visit(
      [&](const auto& r) {
        using T = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<T, format::MemoryEvent>) {
          if (options_.json) {
            Appendf(s, "{\"kind\":\"memory\",\"record\":%" PRIu64 ",\"event\":\"%s\",\"address\":%u,\"size\":%zu}\n",
                    index, MemoryKindName(r.kind), r.guest_address, r.bytes.size());
          } else {
            Appendf(s, "record %" PRIu64 ": memory %s 0x%08X +%zu bytes\n", index,
                    MemoryKindName(r.kind), r.guest_address, r.bytes.size());
          }
        } else if constexpr (std::is_same_v<T, format::RegisterSnapshot>) {
          if (options_.json) {
            Appendf(s, "{\"kind\":\"register_snapshot\",\"record\":%" PRIu64 ",\"first\":%u,\"count\":%zu}\n",
                    index, r.first_register, r.values.size());
          } else {
            Appendf(s, "record %" PRIu64 ": register snapshot %s (0x%04X) +%zu values\n", index,
                    std::string(RegisterName(r.first_register)).c_str(), r.first_register,
                    r.values.size());
          }
        } else if constexpr (std::is_same_v<T, format::FrameMarker>) {
          if (options_.json) {
            Appendf(s, "{\"kind\":\"frame_marker\",\"record\":%" PRIu64 ",\"front_buffer\":%u,\"width\":%u,\"height\":%u,\"format\":%u}\n",
                    index, r.front_buffer_address, r.width, r.height, r.format);
          } else {
            Appendf(s, "record %" PRIu64 ": frame marker front buffer 0x%08X %ux%u %s\n", index,
                    r.front_buffer_address, r.width, r.height,
                    std::string(xenos::TextureFormatName(r.format)).c_str());
          }
        } else if constexpr (std::is_same_v<T, format::Annotation>) {
          if (options_.json) {
            Appendf(s, "{\"kind\":\"annotation\",\"record\":%" PRIu64 ",\"label\":", index);
            AppendJsonString(s, r.label);
            s += ",\"text\":";
            AppendJsonString(s, r.text);
            s += "}\n";
          } else {
            Appendf(s, "record %" PRIu64 ": annotation %s: %s\n", index, r.label.c_str(),
                    r.text.c_str());
          }
        } else if constexpr (std::is_same_v<T, format::EdramSnapshot> ||
                             std::is_same_v<T, format::GammaRamp>) {
          if (options_.json) {
            Appendf(s, "{\"kind\":\"%s\",\"record\":%" PRIu64 "}\n",
                    std::is_same_v<T, format::EdramSnapshot> ? "edram_snapshot" : "gamma_ramp", index);
          } else {
            Appendf(s, "record %" PRIu64 ": %s\n", index,
                    std::is_same_v<T, format::EdramSnapshot> ? "EDRAM snapshot" : "gamma ramp");
          }
        }
      },
      record);
  if (!s.empty()) Line(s);
  return true;
}

void DumpPrinter::OnPacket(const PacketInfo& p) {
  ++packets_;
  if (!InFrame()) return;
  std::string& s = Target();
  const size_t line_start = s.size();
  const char* type_name = "type0";
  std::string_view name_a, name_b;
  std::string unknown;
  bool one_register = false;
  switch (p.type) {
    case xenos::PacketType::kType0: {
      auto h = xenos::DecodeType0(p.header);
      name_a = RegisterName(h.base_index);
      one_register = h.one_register;
      break;
    }
    case xenos::PacketType::kType1: {
      auto h = xenos::DecodeType1(p.header);
      type_name = "type1";
      name_a = RegisterName(h.reg_a);
      name_b = RegisterName(h.reg_b);
      break;
    }
    case xenos::PacketType::kType2:
      type_name = "type2";
      name_a = "-";
      break;
    case xenos::PacketType::kType3:
      type_name = "type3";
      name_a = xenos::OpcodeName(p.opcode);
      if (name_a.empty()) {
        unknown = OpcodeText(p.opcode);
        name_a = unknown;
      }
      break;
  }
  if (p.filler) {
    type_name = "filler";
    name_a = "-";
  }
  if (options_.json) {
    s += "{\"kind\":\"packet\",";
    AppendOffsetJson(s, p.offset);
    s += ",\"address\":";
    AppendDec(s, p.guest_address);
    s += ",\"header\":";
    AppendDec(s, p.header);
    s += ",\"type\":\"";
    s += type_name;
    s += "\",\"name\":\"";
    s += name_a;
    if (!name_b.empty()) {
      s += ',';
      s += name_b;
    }
    if (one_register) s += "(one_register)";
    s += "\",\"count\":";
    AppendDec(s, p.count);
    s += p.predicated ? ",\"predicated\":true" : ",\"predicated\":false";
    s += p.executed ? ",\"executed\":true}\n" : ",\"executed\":false}\n";
  } else {
    AppendOffset(s, p.offset);
    const size_t used = s.size() - line_start;
    if (used < 14) s.append(14 - used, ' ');
    s += ' ';
    AppendHex8(s, p.guest_address);
    s += ' ';
    AppendPadded(s, type_name, 6);
    s += ' ';
    const size_t name_start = s.size();
    s += name_a;
    if (!name_b.empty()) {
      s += ',';
      s += name_b;
    }
    if (one_register) s += "(one_register)";
    const size_t name_len = s.size() - name_start;
    if (name_len < 22) s.append(22 - name_len, ' ');
    s += ' ';
    AppendDec(s, p.count);
    s += " dwords";
    if (p.predicated) s += " predicated";
    if (!p.executed) s += " (skipped: bin_select & bin_mask == 0)";
    s += '\n';
  }
  LineDone();
}

void DumpPrinter::OnRegisterWrite(uint32_t index, uint32_t value) {
  if (!options_.registers || !InFrame()) return;
  DecodedRegister fields;
  DecodeRegisterFields(index, value, fields);
  const std::string_view name = RegisterName(index);
  const bool is_float = IsFloatRegister(index);
  const float f = std::bit_cast<float>(value);
  LineBuf l;
  if (options_.json) {
    l.Put("{\"kind\":\"register\",\"index\":");
    l.Dec(index);
    l.Put(",\"name\":\"");
    l.Put(name);
    l.Put("\",\"value\":");
    l.Dec(value);
    if (is_float) {
      l.Put(",\"float\":");
      if (std::isfinite(f)) {
        l.Float(f);
      } else {
        l.Put("null");
      }
    }
    if (fields.count) {
      l.Put(",\"fields\":{");
      for (uint32_t i = 0; i < fields.count; ++i) {
        const auto& fl = fields.fields[i];
        if (i) l.Put(',');
        l.Put('"');
        l.Put(fl.name);
        l.Put("\":");
        if (!fl.text.empty()) {
          // Field texts are fixed identifiers (no characters that need escaping).
          l.Put('"');
          l.Put(fl.text);
          l.Put('"');
        } else {
          l.Dec(fl.value);
        }
      }
      l.Put('}');
    }
    l.Put("}\n");
  } else {
    l.Put("    ");
    l.Put(name);
    l.Put(" = ");
    l.Hex8(value);
    if (is_float) {
      l.Put(" (");
      l.Float(f);
      l.Put(')');
    }
    for (uint32_t i = 0; i < fields.count; ++i) {
      const auto& fl = fields.fields[i];
      l.Put(' ');
      l.Put(fl.name);
      l.Put('=');
      if (!fl.text.empty()) {
        l.Put(fl.text);
      } else {
        l.Dec(fl.value);
      }
    }
    l.Put('\n');
  }
  l.AppendTo(Target());
  LineDone();
}

void DumpPrinter::OnDiagnostic(const Diagnostic& d) {
  if (!InFrame()) return;
  std::string s;
  if (options_.json) {
    Appendf(s, "{\"kind\":\"diagnostic\",\"severity\":\"%s\",", SeverityName(d.severity));
    AppendOffsetJson(s, d.offset);
    Appendf(s, ",\"address\":%u,\"message\":", d.guest_address);
    AppendJsonString(s, d.message);
    s += "}\n";
  } else {
    s = "! " + d.ToString() + "\n";
  }
  Line(s);
}

void DumpPrinter::AppendRenderTargets(std::string& s, const DrawCall& d) {
  const RegisterFile& r = *d.registers;
  const auto surface = r.Decode<xenos::reg::RB_SURFACE_INFO>();
  const auto mask = r.Decode<xenos::reg::RB_COLOR_MASK>();
  const auto depth_control = r.Decode<xenos::reg::RB_DEPTHCONTROL>();
  const auto depth = r.Decode<xenos::reg::RB_DEPTH_INFO>();
  // A binding is not a use (a bound target that is neither written nor tested holds none of the draw's data): colour targets count with a non-zero write mask in
  // colour+depth mode, depth with the depth or stencil test on.
  bool first = true;
  if (options_.json) s += ",\"render_targets\":[";
  if (d.edram_mode == xenos::ModeControl::kColorDepth) {
    for (uint32_t i = 0; i < 4; ++i) {
      if (!mask.rt_mask(i)) continue;
      const auto ci = r.ColorInfo(i);
      const bool wide = xenos::IsColorRenderTargetFormat64bpp(ci.color_format);
      const uint32_t pitch_tiles = xenos::SurfacePitchTiles(surface.surface_pitch, surface.msaa_samples, wide);
      const auto fmt = xenos::ColorRenderTargetFormatName(uint32_t(ci.color_format));
      if (options_.json) {
        Appendf(s, "%s{\"rt\":%u,\"edram_base\":%u,\"pitch_pixels\":%u,\"pitch_tiles\":%u,\"format\":\"%.*s\",\"msaa\":\"%s\",\"write_mask\":%u,\"exp_bias\":%d}",
                first ? "" : ",", i, ci.color_base, surface.surface_pitch, pitch_tiles,
                int(fmt.size()), fmt.data(), MsaaText(surface.msaa_samples), mask.rt_mask(i),
                ci.color_exp_bias);
      } else {
        Appendf(s, " | rt%u base %u pitch %upx/%ut %.*s %s mask 0x%X", i, ci.color_base,
                surface.surface_pitch, pitch_tiles, int(fmt.size()), fmt.data(),
                MsaaText(surface.msaa_samples), mask.rt_mask(i));
      }
      first = false;
    }
  }
  if ((d.edram_mode == xenos::ModeControl::kColorDepth ||
       d.edram_mode == xenos::ModeControl::kDepth) &&
      (depth_control.z_enable || depth_control.stencil_enable)) {
    const uint32_t pitch_tiles = xenos::SurfacePitchTiles(surface.surface_pitch, surface.msaa_samples, false);
    const auto fmt = xenos::DepthRenderTargetFormatName(uint32_t(depth.depth_format));
    const auto zf = xenos::CompareFunctionName(uint32_t(depth_control.zfunc));
    if (options_.json) {
      Appendf(s, "%s{\"rt\":\"depth\",\"edram_base\":%u,\"pitch_pixels\":%u,\"pitch_tiles\":%u,\"format\":\"%.*s\",\"msaa\":\"%s\",\"z_enable\":%s,\"z_write\":%s,\"zfunc\":\"%.*s\",\"stencil\":%s}",
              first ? "" : ",", depth.depth_base, surface.surface_pitch, pitch_tiles,
              int(fmt.size()), fmt.data(), MsaaText(surface.msaa_samples),
              depth_control.z_enable ? "true" : "false", depth_control.z_write_enable ? "true" : "false",
              int(zf.size()), zf.data(), depth_control.stencil_enable ? "true" : "false");
    } else {
      Appendf(s, " | depth base %u pitch %upx/%ut %.*s %s z %s%s %.*s%s", depth.depth_base,
              surface.surface_pitch, pitch_tiles, int(fmt.size()), fmt.data(),
              MsaaText(surface.msaa_samples), depth_control.z_enable ? "on" : "off",
              depth_control.z_write_enable ? "+write" : "", int(zf.size()), zf.data(),
              depth_control.stencil_enable ? " stencil on" : "");
      // No depth clipping: the depth is clamped instead (gpu::Viewport::clip_depth).
      if (d.registers &&
          d.registers->Decode<xenos::reg::PA_CL_CLIP_CNTL>().clip_disable) {
        s += " clip off";
      }
    }
    first = false;
  }
  if (options_.json) {
    s += "]";
  } else if (first) {
    s += " | no render targets in use";
  }
}

namespace {
void AppendShader(std::string& s, const char* which, const Shader* sh, bool json) {
  if (json) {
    if (!sh) {
      Appendf(s, ",\"%s\":null", which);
    } else {
      Appendf(s, ",\"%s\":{\"address\":%u,\"dwords\":%zu,\"hash\":\"%016" PRIx64 "\",\"immediate\":%s}",
              which, sh->guest_address, sh->dwords.size(), sh->hash, sh->immediate ? "true" : "false");
    }
  } else if (!sh) {
    Appendf(s, " | %s none", which);
  } else {
    Appendf(s, " | %s 0x%08X %zudw %016" PRIx64 "%s", which, sh->guest_address, sh->dwords.size(),
            sh->hash, sh->immediate ? " (immediate)" : "");
  }
}

void AppendIndices(std::string& s, const IndexBuffer& ib, bool json) {
  const char* fmt = ib.format == xenos::IndexFormat::kInt32 ? "int32" : "int16";
  const auto endian = xenos::EndianName(ib.endian);
  if (json) {
    Appendf(s, ",\"indices\":{\"source\":\"%s\",\"format\":\"%s\"", SourceName(ib.source), fmt);
    if (ib.source == xenos::SourceSelect::kDma) {
      Appendf(s, ",\"address\":%u,\"size\":%u,\"endian\":\"%.*s\"", ib.guest_address, ib.size_bytes,
              int(endian.size()), endian.data());
    } else if (ib.source == xenos::SourceSelect::kImmediate) {
      Appendf(s, ",\"immediate_dwords\":%zu", ib.immediate.size());
    }
    s += "}";
  } else if (ib.source == xenos::SourceSelect::kDma) {
    Appendf(s, " dma 0x%08X +%u bytes %s %.*s", ib.guest_address, ib.size_bytes, fmt,
            int(endian.size()), endian.data());
  } else if (ib.source == xenos::SourceSelect::kImmediate) {
    Appendf(s, " immediate %s (%zu dwords)", fmt, ib.immediate.size());
  } else {
    s += " auto";
  }
}
}  // namespace

void DumpPrinter::OnDraw(const DrawCall& d) {
  if (!InFrame()) return;
  std::string s;
  const auto prim = xenos::PrimitiveTypeName(uint32_t(d.initiator.prim_type));
  if (options_.json) {
    Appendf(s, "{\"kind\":\"draw\",\"frame\":%" PRIu64 ",\"draw\":%u,", d.frame, d.draw_index);
    AppendOffsetJson(s, d.offset);
    Appendf(s, ",\"opcode\":\"%s\",\"primitive\":\"%.*s\",\"index_count\":%u,\"edram_mode\":\"%s\"",
            OpcodeText(d.opcode).c_str(), int(prim.size()), prim.data(), d.initiator.num_indices,
            ModeName(d.edram_mode));
    AppendIndices(s, d.indices, true);
    AppendShader(s, "vs", d.vertex_shader, true);
    AppendShader(s, "ps", d.pixel_shader, true);
    AppendRenderTargets(s, d);
    s += "}\n";
  } else {
    Appendf(s, "  => draw %" PRIu64 ".%u %.*s %u indices", d.frame, d.draw_index, int(prim.size()),
            prim.data(), d.initiator.num_indices);
    AppendIndices(s, d.indices, false);
    AppendShader(s, "vs", d.vertex_shader, false);
    if (d.edram_mode == xenos::ModeControl::kDepth) {
      // DrawCall::pixel_shader is null in kDepth mode, whatever shader is loaded.
      s += " | ps not run (edram depth)";
    } else {
      AppendShader(s, "ps", d.pixel_shader, false);
    }
    Appendf(s, " | edram %s", ModeName(d.edram_mode));
    AppendRenderTargets(s, d);
    s += '\n';
  }
  Line(s);
  EndDrawSegment(d.draw_index);
}

void DumpPrinter::OnResolve(const ResolveCall& r) {
  if (!InFrame()) return;
  std::string s;
  const auto& d = r.draw;
  const bool depth = r.copy_control.copy_src_select >= 4;
  const RegisterFile& regs = *d.registers;
  uint32_t src_base = 0;
  std::string_view src_format;
  if (depth) {
    const auto di = regs.Decode<xenos::reg::RB_DEPTH_INFO>();
    src_base = di.depth_base;
    src_format = xenos::DepthRenderTargetFormatName(uint32_t(di.depth_format));
  } else {
    const auto ci = regs.ColorInfo(r.copy_control.copy_src_select);
    src_base = ci.color_base;
    src_format = xenos::ColorRenderTargetFormatName(uint32_t(ci.color_format));
  }
  const auto dest_format = xenos::TextureFormatName(uint32_t(r.dest_info.copy_dest_format));
  if (options_.json) {
    Appendf(s, "{\"kind\":\"resolve\",\"frame\":%" PRIu64 ",\"draw\":%u,", d.frame, d.draw_index);
    AppendOffsetJson(s, d.offset);
    Appendf(s, ",\"source\":\"%s%s\",\"source_edram_base\":%u,\"source_format\":\"%.*s\",\"surface_pitch\":%u,\"msaa\":\"%s\",\"sample_select\":%u,\"dest_base\":%u,\"dest_pitch\":%u,\"dest_height\":%u,\"dest_format\":\"%.*s\",\"dest_endian\":%u,\"dest_array\":%s,\"dest_slice\":%u,\"dest_exp_bias\":%d,\"color_clear\":%s,\"depth_clear\":%s,\"color_clear_value\":%u,\"color_clear_lo\":%u,\"depth_clear_value\":%u}\n",
            depth ? "depth" : "color", depth ? "" : std::to_string(r.copy_control.copy_src_select).c_str(),
            src_base, int(src_format.size()), src_format.data(), r.surface_info.surface_pitch,
            MsaaText(r.surface_info.msaa_samples), uint32_t(r.copy_control.copy_sample_select),
            r.dest_base, r.dest_pitch.copy_dest_pitch, r.dest_pitch.copy_dest_height,
            int(dest_format.size()), dest_format.data(), uint32_t(r.dest_info.copy_dest_endian),
            r.dest_info.copy_dest_array ? "true" : "false", r.dest_info.copy_dest_slice,
            r.dest_info.copy_dest_exp_bias, r.copy_control.color_clear_enable ? "true" : "false",
            r.copy_control.depth_clear_enable ? "true" : "false", r.color_clear, r.color_clear_lo,
            r.depth_clear);
  } else {
    Appendf(s, "  => resolve %" PRIu64 ".%u %s%s base %u %.*s pitch %upx %s sample %u -> 0x%08X pitch %u height %u %.*s endian %u%s",
            d.frame, d.draw_index, depth ? "depth" : "color",
            depth ? "" : std::to_string(r.copy_control.copy_src_select).c_str(), src_base,
            int(src_format.size()), src_format.data(), r.surface_info.surface_pitch,
            MsaaText(r.surface_info.msaa_samples), uint32_t(r.copy_control.copy_sample_select),
            r.dest_base, r.dest_pitch.copy_dest_pitch, r.dest_pitch.copy_dest_height,
            int(dest_format.size()), dest_format.data(), uint32_t(r.dest_info.copy_dest_endian),
            r.dest_info.copy_dest_array ? " array" : "");
    if (r.copy_control.color_clear_enable) Appendf(s, " | clear color 0x%08X", r.color_clear);
    if (r.copy_control.depth_clear_enable) Appendf(s, " | clear depth 0x%08X", r.depth_clear);
    s += '\n';
  }
  Line(s);
  EndDrawSegment(d.draw_index);
}

namespace {

// Disassembly lines of `shader` that write eA or eM0-eM4 (memexport), trimmed.
std::vector<std::string> ExportInstructions(const Shader& shader) {
  std::vector<std::string> out;
  if (!shader.decoded || !shader.decoded->decodes()) return out;
  const std::string text = ucode::Disassemble(shader.decoded->shader);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    const size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    line = line.substr(first);
    // "mad eA, ...", "(p0) mov eM1, ...", "+ muls eM0.x, ...".
    if (line.find(" eA") != std::string::npos || line.find(" eM") != std::string::npos) {
      out.push_back(line);
    }
  }
  return out;
}

}  // namespace

void DumpPrinter::OnMemExport(const MemExportCall& m) {
  if (!InFrame() || !m.draw || !m.shader) return;
  std::string s;
  const auto fmt = xenos::TextureFormatName(uint32_t(m.stream.format));
  const char* stage = m.shader->type == xenos::ShaderType::kPixel ? "ps" : "vs";
  if (options_.json) {
    Appendf(s, "{\"kind\":\"memexport\",\"frame\":%" PRIu64 ",\"draw\":%u,\"shader\":\"%s\",\"constant\":%u,\"address\":%u,\"elements\":%u,\"format\":\"%.*s\",\"num_format\":%u,\"endian\":%u,\"red_blue_swap\":%s,\"data_mask\":%u}\n",
            m.draw->frame, m.draw->draw_index, stage, m.stream_constant,
            m.stream.base_address_bytes(), m.stream.index_count, int(fmt.size()), fmt.data(),
            uint32_t(m.stream.num_format), uint32_t(m.stream.endianness),
            m.stream.red_blue_swap ? "true" : "false", m.shader->memexport_data_mask);
  } else {
    Appendf(s, "  => memexport %" PRIu64 ".%u %s c%u: 0x%08X %u elements %.*s num_format %u endian %u%s eM mask 0x%X\n",
            m.draw->frame, m.draw->draw_index, stage, m.stream_constant,
            m.stream.base_address_bytes(), m.stream.index_count, int(fmt.size()), fmt.data(),
            uint32_t(m.stream.num_format), uint32_t(m.stream.endianness),
            m.stream.red_blue_swap ? " red_blue_swap" : "", m.shader->memexport_data_mask);
    // The instructions that write eA / eM#, as the disassembler prints them.
    for (const std::string& e : ExportInstructions(*m.shader)) Appendf(s, "       %s\n", e.c_str());
  }
  Line(s);
}

void DumpPrinter::OnSwap(const SwapCall& sw) {
  if (!InFrame()) return;
  std::string s;
  if (options_.json) {
    Appendf(s, "{\"kind\":\"swap\",\"frame\":%" PRIu64 ",", sw.frame);
    AppendOffsetJson(s, sw.offset);
    Appendf(s, ",\"front_buffer\":%u,\"width\":%u,\"height\":%u}\n", sw.front_buffer_address,
            sw.width, sw.height);
  } else {
    Appendf(s, "  => swap frame %" PRIu64 ": front buffer 0x%08X %ux%u\n", sw.frame,
            sw.front_buffer_address, sw.width, sw.height);
  }
  Line(s);
}

void DumpPrinter::OnEvent(const EventCall& e) {
  if (!InFrame()) return;
  std::string s;
  const auto ev = xenos::EventName(e.initiator & 0x3Fu);
  if (options_.json) {
    Appendf(s, "{\"kind\":\"event\",\"event\":\"%s\",", EventKindName(e.kind));
    AppendOffsetJson(s, e.offset);
    Appendf(s, ",\"initiator\":%u,\"address\":%u,\"value\":%u}\n", e.initiator, e.address, e.value);
  } else {
    Appendf(s, "  => event %s", EventKindName(e.kind));
    if (e.kind == EventKind::kEventWrite || e.kind == EventKind::kEventWriteShd ||
        e.kind == EventKind::kEventWriteExt || e.kind == EventKind::kEventWriteZpd) {
      Appendf(s, " initiator 0x%08X (%.*s)", e.initiator, int(ev.size()), ev.data());
    }
    if (e.address) Appendf(s, " address 0x%08X", e.address);
    if (e.value || e.kind == EventKind::kEventWriteShd) Appendf(s, " value 0x%08X", e.value);
    s += '\n';
  }
  Line(s);
}

void DumpPrinter::OnEdramSnapshot(std::span<const uint8_t>) {}
void DumpPrinter::OnGammaRamp(const format::GammaRamp&) {}

void DumpPrinter::OnFrameEnd(const FrameEndCall& f) {
  if (!InFrame()) return;
  segment_.clear();
  std::string s;
  if (options_.json) {
    Appendf(s, "{\"kind\":\"frame_end\",\"frame\":%" PRIu64 ",\"draws\":%u}\n", f.frame, f.draws);
  } else {
    Appendf(s, "end of frame %" PRIu64 ": %u draws and resolves\n", f.frame, f.draws);
  }
  if (!in_segment_mode_) Line(s);
}

}  // namespace xnt::replay
