#include "xnt/replay/display_gamma.h"

#include <algorithm>

#include "xnt/xenos/registers.h"

namespace xnt::replay {

namespace {

using xenos::Reg;

uint32_t Entry10(uint32_t entry, uint32_t c) { return (entry >> (20 - 10 * c)) & 0x3FFu; }

uint32_t LinearTableEntry(uint32_t i) {
  const uint32_t v = i * 0x3FFu / 0xFFu;
  return v | (v << 10) | (v << 20);
}

}  // namespace

DisplayGamma::DisplayGamma() {
  // Direct3D's start-up ramps (what games set with the sRGB-returning VdGetCurrentDisplayGamma;
  // Xenia CommandProcessor::Initialize takes its defaults from them).
  for (uint32_t i = 0; i < 256; ++i) table_[i] = LinearTableEntry(i);
  for (uint32_t i = 0; i < 128; ++i) {
    const uint32_t base = (i * 0xFFFFu / 0x7Fu) & ~0x3Fu;
    const uint32_t delta = i < 0x7F ? 0x200u : 0u;
    pwl_[i].fill(base | (delta << 16));
  }
}

void DisplayGamma::Load(const format::GammaRamp& ramp) {
  for (size_t i = 0; i < std::min<size_t>(ramp.table.size(), 256); ++i) table_[i] = ramp.table[i];
  for (size_t i = 0; i < std::min<size_t>(ramp.pwl.size(), 128 * 3); ++i) {
    pwl_[i / 3][i % 3] = ramp.pwl[i] & ~((0x3Fu << 16) | 0x3Fu);
  }
  rw_component_ = ramp.rw_component % 3;
  UpdateIdentity();
}

void DisplayGamma::OnRegisterWrite(uint32_t index, RegisterFile& regs) {
  const auto reg = Reg(index);
  if (reg == Reg::DC_LUT_RW_INDEX || reg == Reg::DC_LUT_RW_MODE) {
    // A new index or mode starts again at red (the M56 guide's sequential port rule).
    rw_component_ = 0;
    return;
  }
  if (reg != Reg::DC_LUT_SEQ_COLOR && reg != Reg::DC_LUT_PWL_DATA && reg != Reg::DC_LUT_30_COLOR) {
    return;
  }
  const uint32_t value = regs.Get(reg);
  const uint32_t rw_index = regs.Get(Reg::DC_LUT_RW_INDEX) & 0xFFu;
  const uint32_t enable = regs.Get(Reg::DC_LUT_WRITE_EN_MASK) & 7u;  // blue, green, red
  if (reg == Reg::DC_LUT_30_COLOR) {
    uint32_t& e = table_[rw_index];
    for (uint32_t c = 0; c < 3; ++c) {
      // Enable bit 2 - c belongs to channel c (red is bit 2).
      if (enable & (4u >> c)) {
        const uint32_t shift = 20 - 10 * c;
        e = (e & ~(0x3FFu << shift)) | (value & (0x3FFu << shift));
      }
    }
    UpdateIdentity();
    return;
  }
  // The sequential ports: red, green, blue, then the next entry.
  const uint32_t c = rw_component_;
  if (enable & (4u >> c)) {
    if (reg == Reg::DC_LUT_SEQ_COLOR) {
      // The 16-bit colour's bits 5:0 are hardwired to zero: 10 bits remain.
      uint32_t& e = table_[rw_index];
      const uint32_t shift = 20 - 10 * c;
      e = (e & ~(0x3FFu << shift)) | ((((value & 0xFFFFu) >> 6) & 0x3FFu) << shift);
    } else {
      // PWL ignores the index's bit 7.
      pwl_[rw_index & 0x7Fu][c] = value & ~((0x3Fu << 16) | 0x3Fu);
    }
  }
  if (++rw_component_ == 3) {
    rw_component_ = 0;
    const uint32_t next = reg == Reg::DC_LUT_SEQ_COLOR
                              ? (rw_index + 1) & 0xFFu
                              : (rw_index & 0x80u) | ((rw_index + 1) & 0x7Fu);
    regs.Set(xenos::RegIndex(Reg::DC_LUT_RW_INDEX),
             (regs.Get(Reg::DC_LUT_RW_INDEX) & ~0xFFu) | next);
  }
  UpdateIdentity();
}

format::GammaRamp DisplayGamma::ToRecord() const {
  format::GammaRamp r;
  r.table.assign(table_.begin(), table_.end());
  for (const auto& entry : pwl_) r.pwl.insert(r.pwl.end(), entry.begin(), entry.end());
  r.rw_component = uint8_t(rw_component_);
  return r;
}

bool DisplayGamma::at_start_up() const {
  const DisplayGamma start;
  return table_ == start.table_ && pwl_ == start.pwl_ && rw_component_ == 0;
}

uint32_t DisplayGamma::Table(uint32_t c, uint32_t value8) const {
  return Entry10(table_[value8 & 0xFFu], c);
}

float DisplayGamma::Pwl(uint32_t c, uint32_t value10) const {
  const uint32_t e = pwl_[(value10 >> 3) & 0x7Fu][c];
  const float base = float(e & 0xFFFFu), delta = float(e >> 16);
  return std::min((base + float(value10 & 7u) * delta * (1.0f / 8.0f)) * (1.0f / (64.0f * 1023.0f)),
                  1.0f);
}

void DisplayGamma::UpdateIdentity() {
  table_identity_ = true;
  for (uint32_t i = 0; i < 256 && table_identity_; ++i) {
    for (uint32_t c = 0; c < 3; ++c) {
      if ((Table(c, i) * 255u + 511u) / 1023u != i) table_identity_ = false;
    }
  }
}

}  // namespace xnt::replay
