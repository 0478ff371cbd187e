// The Xenos register file: 0x5003 dwords (Xenia RegisterFile::kRegisterCount), covering the
// control registers, the 512 float4 ALU constants, 32 fetch-constant groups, the bool and loop
// constants. Values are stored in host order exactly as packets wrote them. Names and decoded
// fields for display live in register_names.h.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "xnt/xenos/enums.h"
#include "xnt/xenos/registers.h"

namespace xnt::replay {

class RegisterFile {
 public:
  static constexpr uint32_t kCount = xenos::kRegisterCount;

  RegisterFile() { values_.fill(0); }

  static constexpr bool IsValidIndex(uint32_t index) { return index < kCount; }

  // Out-of-range indices read as 0; callers that care check IsValidIndex first.
  uint32_t operator[](uint32_t index) const { return index < kCount ? values_[index] : 0; }
  uint32_t Get(xenos::Reg r) const { return values_[xenos::RegIndex(r)]; }
  // Writes outside the file are dropped (returns false) - the command processor reports them.
  bool Set(uint32_t index, uint32_t value) {
    if (index >= kCount) return false;
    values_[index] = value;
    return true;
  }
  void Set(xenos::Reg r, uint32_t value) { values_[xenos::RegIndex(r)] = value; }

  // Decoded view of a register with a decoder in xnt/xenos/registers.h, e.g.
  // regs.Decode<xenos::reg::RB_SURFACE_INFO>().
  template <class T>
  T Decode() const {
    return T::Decode(values_[xenos::RegIndex(T::kReg)]);
  }
  xenos::reg::RB_COLOR_INFO ColorInfo(uint32_t rt) const {
    return xenos::reg::RB_COLOR_INFO::Decode(Get(xenos::kColorInfoRegs[rt & 3]));
  }
  xenos::reg::RB_BLENDCONTROL BlendControl(uint32_t rt) const {
    return xenos::reg::RB_BLENDCONTROL::Decode(Get(xenos::kBlendControlRegs[rt & 3]));
  }
  float GetFloat(uint32_t index) const;

  // Constants.
  float AluConstant(uint32_t vec4, uint32_t component) const {
    return GetFloat(xenos::AluConstantIndex(vec4 & 511, component & 3));
  }
  xenos::VertexFetchConstant VertexFetch(uint32_t n) const {
    uint32_t i = xenos::VertexFetchConstantIndex(n % xenos::kVertexFetchConstantCount);
    return xenos::VertexFetchConstant::Decode(values_[i], values_[i + 1]);
  }
  xenos::TextureFetchConstant TextureFetch(uint32_t n) const {
    return xenos::TextureFetchConstant::Decode(
        &values_[xenos::FetchConstantIndex(n % xenos::kTextureFetchConstantCount, 0)]);
  }
  bool BoolConstant(uint32_t bit) const {
    return (values_[xenos::BoolConstantIndex(bit & 255)] >> (bit & 31)) & 1u;
  }
  xenos::LoopConstant Loop(uint32_t n) const {
    return xenos::LoopConstant::Decode(values_[xenos::LoopConstantIndex(n & 31)]);
  }

  std::span<const uint32_t> values() const { return values_; }
  std::span<uint32_t> mutable_values() { return values_; }

 private:
  std::array<uint32_t, kCount> values_;
};

}  // namespace xnt::replay
