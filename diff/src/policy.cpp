// Policy file parsing, threshold overlay and Evaluate().
#include "xnt/diff/policy.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "xnt/base/enum_names.h"
#include "xnt/base/error.h"
#include "xnt/diff/png.h"

namespace xnt::diff {
namespace {

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

double ParseNumber(const std::string& key, const std::string& v) {
  if (v.empty()) throw Error(key + ": missing value");
  const char* begin = v.c_str();
  char* end = nullptr;
  double d = std::strtod(begin, &end);
  if (end == begin || *end != '\0' || !std::isfinite(d))
    throw Error(key + ": '" + v + "' is not a number");
  return d;
}

double ParseFraction(const std::string& key, const std::string& v) {
  double d = ParseNumber(key, v);
  if (d < 0 || d > 1) throw Error(key + ": " + v + " is outside 0..1 (channel values are normalized: 1/255 = 0.0039)");
  return d;
}

bool ParseBool(const std::string& key, const std::string& v) {
  if (v == "true" || v == "yes" || v == "1") return true;
  if (v == "false" || v == "no" || v == "0") return false;
  throw Error(key + ": '" + v + "' is not true or false");
}

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

}  // namespace

bool GlobMatch(const std::string& pattern, const std::string& name) {
  // Iterative matcher with one backtrack point: linear in practice, no recursion depth issues.
  size_t p = 0, n = 0, star = std::string::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

enum ClearBit : uint32_t {
  kExact = 1, kIgnoreAlpha = 2, kMaxError = 4, kMeanError = 8, kPixelThreshold = 16, kMaxPixelsOver = 32,
  kMinPsnr = 64, kMinSsim = 128, kMaxFlip = 256,
};

void SetThreshold(Thresholds& t, const std::string& key, const std::string& value) {
  const bool none = value == "none";
  auto mark = [&](uint32_t bit) {
    if (none)
      t.cleared |= bit;
    else
      t.cleared &= ~bit;
  };
  // A key's value is "none" (cleared, overriding earlier sections) or what its parser accepts.
  auto set = [&](uint32_t bit, auto& field, auto parse) {
    mark(bit);
    if (none)
      field.reset();
    else
      field = parse(key, value);
  };
  if (key == "exact") {
    set(kExact, t.exact, ParseBool);
  } else if (key == "ignore_alpha") {
    set(kIgnoreAlpha, t.ignore_alpha, ParseBool);
  } else if (key == "max_error") {
    set(kMaxError, t.max_error, ParseFraction);
  } else if (key == "mean_error") {
    set(kMeanError, t.mean_error, ParseFraction);
  } else if (key == "pixel_threshold") {
    mark(kPixelThreshold);
    if (none) {
      t.pixel_threshold.reset();
      return;
    }
    std::array<float, 4> thr{};
    std::vector<std::string> parts;
    std::stringstream ss(value);
    for (std::string part; std::getline(ss, part, ',');) parts.push_back(Trim(part));
    if (parts.size() == 1) {
      thr.fill(float(ParseFraction(key, parts[0])));
    } else if (parts.size() == 3 || parts.size() == 4) {
      for (size_t i = 0; i < parts.size(); ++i) thr[i] = float(ParseFraction(key, parts[i]));
      if (parts.size() == 3) thr[3] = thr[2];
    } else {
      throw Error(key + ": expected one value or R,G,B[,A] values, got '" + value + "'");
    }
    t.pixel_threshold = thr;
  } else if (key == "max_pixels_over") {
    mark(kMaxPixelsOver);
    if (none) {
      t.max_pixels_over.reset();
      return;
    }
    bool percent = !value.empty() && value.back() == '%';
    double d = ParseNumber(key, percent ? Trim(value.substr(0, value.size() - 1)) : value);
    if (d < 0 || (percent && d > 100)) throw Error(key + ": '" + value + "' out of range");
    t.max_pixels_over = d;
    t.max_pixels_over_percent = percent;
  } else if (key == "min_psnr") {
    set(kMinPsnr, t.min_psnr, ParseNumber);
  } else if (key == "min_ssim") {
    set(kMinSsim, t.min_ssim, [](const std::string& k, const std::string& v) {
      const double d = ParseNumber(k, v);
      if (d < -1 || d > 1) throw Error(k + ": " + v + " is outside -1..1");
      return d;
    });
  } else if (key == "max_flip") {
    set(kMaxFlip, t.max_flip, ParseFraction);
  } else {
    throw Error("unknown key '" + key +
                "' (known: exact, max_error, mean_error, pixel_threshold, max_pixels_over, min_psnr, min_ssim, "
                "max_flip, ignore_alpha)");
  }
}

void Thresholds::Overlay(const Thresholds& o) {
  auto apply = [&](auto& mine, const auto& theirs, uint32_t bit) {
    if (theirs)
      mine = theirs;
    else if (o.cleared & bit)
      mine.reset();
  };
  apply(exact, o.exact, kExact);
  apply(max_error, o.max_error, kMaxError);
  apply(mean_error, o.mean_error, kMeanError);
  apply(pixel_threshold, o.pixel_threshold, kPixelThreshold);
  apply(max_pixels_over, o.max_pixels_over, kMaxPixelsOver);
  if (o.max_pixels_over) max_pixels_over_percent = o.max_pixels_over_percent;
  apply(min_psnr, o.min_psnr, kMinPsnr);
  apply(min_ssim, o.min_ssim, kMinSsim);
  apply(max_flip, o.max_flip, kMaxFlip);
  apply(ignore_alpha, o.ignore_alpha, kIgnoreAlpha);
}

bool Thresholds::AnyCheck() const {
  return (exact && *exact) || max_error || mean_error || max_pixels_over || min_psnr || min_ssim || max_flip;
}

CompareOptions Thresholds::ToCompareOptions(CompareOptions base) const {
  if (ignore_alpha) base.ignore_alpha = *ignore_alpha;
  if (pixel_threshold) base.pixel_threshold = *pixel_threshold;
  return base;
}

std::string Thresholds::Describe() const {
  std::vector<std::string> parts;
  if (!AnyCheck() || (exact && *exact)) parts.push_back("exact");
  if (max_error) parts.push_back("max_error <= " + Num(*max_error));
  if (mean_error) parts.push_back("mean_error <= " + Num(*mean_error));
  if (max_pixels_over) {
    std::string thr = "0";
    if (pixel_threshold) thr = Num((*pixel_threshold)[0]);
    parts.push_back("pixels over " + thr + " <= " + Num(*max_pixels_over) + (max_pixels_over_percent ? "%" : ""));
  }
  if (min_psnr) parts.push_back("min_psnr >= " + Num(*min_psnr) + " dB");
  if (min_ssim) parts.push_back("min_ssim >= " + Num(*min_ssim));
  if (max_flip) parts.push_back("max_flip <= " + Num(*max_flip));
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

Policy Policy::Parse(const std::string& text, const std::string& file_name) {
  Policy policy;
  std::stringstream in(text);
  std::string line;
  int line_no = 0;
  Section* current = nullptr;
  while (std::getline(in, line)) {
    ++line_no;
    auto where = [&] { return file_name + ":" + std::to_string(line_no) + ": "; };
    std::string s = Trim(line);
    if (s.empty() || s[0] == '#' || s[0] == ';') continue;
    if (s[0] == '[') {
      if (s.back() != ']') throw Error(where() + "section header without closing ']'");
      std::string pattern = Trim(s.substr(1, s.size() - 2));
      if (pattern.empty()) throw Error(where() + "empty section pattern");
      policy.sections_.push_back({pattern, {}});
      current = &policy.sections_.back();
      continue;
    }
    size_t eq = s.find('=');
    if (eq == std::string::npos) throw Error(where() + "expected 'key = value' or '[pattern]', got '" + s + "'");
    std::string key = Trim(s.substr(0, eq));
    std::string value = Trim(s.substr(eq + 1));
    // Trailing comments after a value.
    size_t hash = value.find_first_of("#;");
    if (hash != std::string::npos) value = Trim(value.substr(0, hash));
    if (!current) {
      policy.sections_.push_back({"*", {}});
      current = &policy.sections_.back();
    }
    try {
      SetThreshold(current->thresholds, key, value);
    } catch (const Error& e) {
      throw Error(where() + e.what());
    }
  }
  return policy;
}

Policy Policy::Load(const std::string& path) {
  std::vector<uint8_t> bytes = ReadFileBytes(path);
  if (bytes.size() > (1u << 20)) throw Error(path + ": policy file larger than 1 MiB");
  return Parse(std::string(bytes.begin(), bytes.end()), path);
}

Thresholds Policy::For(const std::string& name) const {
  Thresholds t;
  for (const Section& s : sections_)
    if (GlobMatch(s.pattern, name)) t.Overlay(s.thresholds);
  return t;
}

const char* StatusName(Status s) {
  static constexpr const char* kNames[] = {"pass", "differ", "error"};
  return EnumName(s, kNames);
}

Verdict Evaluate(const Metrics& m, const Thresholds& t) {
  Verdict v;
  auto fail = [&](std::string reason) {
    v.status = Status::kDiffer;
    v.reasons.push_back(std::move(reason));
  };
  const bool exact = !t.AnyCheck() || (t.exact && *t.exact);
  if (exact && !m.exact)
    fail("not exact: " + std::to_string(m.pixels_differing) + " pixels differ (max error " + Num(m.max_abs) + ")");
  if (t.max_error && m.max_abs > *t.max_error)
    fail("max error " + Num(m.max_abs) + " > " + Num(*t.max_error) + " at (" + std::to_string(m.max_x) + "," +
         std::to_string(m.max_y) + ")");
  if (t.mean_error && m.mean_abs > *t.mean_error)
    fail("mean error " + Num(m.mean_abs) + " > " + Num(*t.mean_error));
  if (t.max_pixels_over) {
    double total = double(m.width) * double(m.height);
    double limit = t.max_pixels_over_percent ? *t.max_pixels_over / 100.0 * total : *t.max_pixels_over;
    if (double(m.pixels_over) > limit)
      fail(std::to_string(m.pixels_over) + " pixels over threshold (" + Num(100.0 * double(m.pixels_over) / total) +
           "%) > " + Num(*t.max_pixels_over) + (t.max_pixels_over_percent ? "%" : ""));
  }
  if (t.min_psnr && m.min_channel_psnr < *t.min_psnr)
    fail("PSNR " + Num(m.min_channel_psnr) + " dB < " + Num(*t.min_psnr) + " dB");
  if (t.min_ssim) {
    if (!m.has_ssim) throw Error("policy asks for SSIM but it was not computed");
    if (m.ssim_min < *t.min_ssim) fail("SSIM " + Num(m.ssim_min) + " < " + Num(*t.min_ssim));
  }
  if (t.max_flip) {
    if (!m.has_flip) throw Error("policy asks for the FLIP-style error but it was not computed");
    if (m.flip_mean > *t.max_flip) fail("FLIP-style mean " + Num(m.flip_mean) + " > " + Num(*t.max_flip));
  }
  return v;
}

}  // namespace xnt::diff
