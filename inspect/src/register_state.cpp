// The state panel's registers: the named control registers grouped by hardware block, decoded by
// the same field decoders `xenotrace dump` prints (replay/register_names.h), never a second one.
#include <bit>
#include <cstdio>

#include "site_internal.h"
#include "xnt/replay/register_names.h"
#include "xnt/xenos/registers.h"

namespace xnt::inspect {

RegisterState::RegisterState() {
  for (uint32_t i = 0; i < xenos::kRegisterCount; ++i) {
    // The constant areas (ALU, fetch, bool, loop) are the shader and fetch panels' business.
    if (i >= xenos::kAluConstantBase) break;
    if (replay::IsNamedRegister(i)) named_.push_back(i);
  }
  previous_.assign(named_.size(), 0);
}

std::vector<uint32_t> RegisterState::Changes(const replay::RegisterFile& regs) {
  std::vector<uint32_t> changed;
  for (size_t n = 0; n < named_.size(); ++n) {
    const uint32_t v = regs[named_[n]];
    if (v != previous_[n] || (first_ && v != 0)) changed.push_back(named_[n]);
    previous_[n] = v;
  }
  first_ = false;
  return changed;
}

Json RegisterState::Full(const replay::RegisterFile& regs) const {
  Json all = Json::array();
  for (uint32_t index : named_) {
    if (regs[index] != 0) all.push_back(Entry(index, regs[index]));
  }
  return all;
}

Json RegisterState::Entry(uint32_t index, uint32_t value) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08X", value);
  std::string fields;
  replay::DecodedRegister decoded;
  if (replay::DecodeRegisterFields(index, value, decoded)) {
    for (uint32_t f = 0; f < decoded.count; ++f) {
      const auto& field = decoded.fields[f];
      if (!fields.empty()) fields += ' ';
      fields += std::string(field.name) + '=' + std::to_string(field.value);
      if (!field.text.empty()) fields += '(' + std::string(field.text) + ')';
    }
  } else if (replay::IsFloatRegister(index)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", double(std::bit_cast<float>(value)));
    fields = buf;
  }
  return Json::array({index, replay::RegisterName(index), hex, fields});
}

std::string RegisterState::Block(std::string_view name) {
  const size_t us = name.find('_');
  return std::string(name.substr(0, us == std::string_view::npos ? name.size() : us));
}

}  // namespace xnt::inspect
