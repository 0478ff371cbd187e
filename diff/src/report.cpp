// Report model and the text, JSON and JUnit XML writers.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "xnt/base/escape.h"
#include "xnt/base/json.h"
#include "xnt/diff/report.h"

namespace xnt::diff {
namespace {

std::string Num(double v) {
  if (!std::isfinite(v)) return "null";  // JSON has no infinity: PSNR of identical images
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

std::string Hex(uint64_t v) {
  char buf[20];
  std::snprintf(buf, sizeof(buf), "%016" PRIx64, v);
  return buf;
}

const char* kChannelNames[4] = {"R", "G", "B", "A"};

std::string MetricsJson(const Metrics& m) {
  std::string j = "{";
  j += "\"width\": " + std::to_string(m.width) + ", \"height\": " + std::to_string(m.height);
  j += ", \"channels\": " + std::to_string(m.channels);
  j += ", \"exact\": " + std::string(m.exact ? "true" : "false");
  j += ", \"hash_a\": \"" + Hex(m.hash_a) + "\", \"hash_b\": \"" + Hex(m.hash_b) + "\"";
  j += ", \"max_error\": " + Num(m.max_abs) + ", \"mean_error\": " + Num(m.mean_abs);
  j += ", \"max_error_at\": " + (m.max_x >= 0 ? "[" + std::to_string(m.max_x) + ", " + std::to_string(m.max_y) + "]"
                                              : std::string("null"));
  j += ", \"psnr\": " + Num(m.psnr) + ", \"min_channel_psnr\": " + Num(m.min_channel_psnr);
  j += ", \"pixels_differing\": " + std::to_string(m.pixels_differing);
  j += ", \"pixels_over\": " + std::to_string(m.pixels_over);
  j += ", \"ssim_luma\": " + (m.has_ssim ? Num(m.ssim_luma) : "null");
  j += ", \"ssim_min\": " + (m.has_ssim ? Num(m.ssim_min) : "null");
  j += ", \"flip_mean\": " + (m.has_flip ? Num(m.flip_mean) : "null");
  j += ", \"flip_max\": " + (m.has_flip ? Num(m.flip_max) : "null");
  j += ", \"per_channel\": [";
  for (int c = 0; c < m.channels; ++c) {
    const ChannelMetrics& ch = m.channel[size_t(c)];
    j += std::string(c ? ", " : "") + "{\"channel\": \"" + kChannelNames[c] + "\", \"max_error\": " + Num(ch.max_abs) +
         ", \"mean_error\": " + Num(ch.mean_abs) + ", \"mse\": " + Num(ch.mse) + ", \"psnr\": " + Num(ch.psnr) +
         ", \"ssim\": " + (m.has_ssim ? Num(ch.ssim) : "null") +
         ", \"pixels_over\": " + std::to_string(ch.pixels_over) + "}";
  }
  return j + "]}";
}

std::string Brief(const ReportItem& it) {
  switch (it.kind) {
    case ItemKind::kMissing: return "missing in B";
    case ItemKind::kExtra: return "only in B (extra)";
    case ItemKind::kError: return it.error;
    case ItemKind::kCompared: break;
  }
  const Metrics& m = it.metrics;
  char buf[200];
  if (m.exact) return "identical";
  std::snprintf(buf, sizeof(buf), "max %.4g, %" PRIu64 " px differ, PSNR %.2f dB, SSIM %.5f, FLIP %.4f", m.max_abs,
                m.pixels_differing, m.min_channel_psnr, m.ssim_min, m.flip_mean);
  return buf;
}

}  // namespace

const char* ItemKindName(ItemKind kind) {
  switch (kind) {
    case ItemKind::kCompared: return "compared";
    case ItemKind::kMissing: return "missing";
    case ItemKind::kExtra: return "extra";
    case ItemKind::kError: return "error";
  }
  return "?";
}

int Report::Count(Status s) const {
  return int(std::count_if(items.begin(), items.end(), [&](const ReportItem& i) { return i.status == s; }));
}
int Report::CountKind(ItemKind k) const {
  return int(std::count_if(items.begin(), items.end(), [&](const ReportItem& i) { return i.kind == k; }));
}
Status Report::Overall() const {
  if (Count(Status::kError)) return Status::kError;
  if (Count(Status::kDiffer)) return Status::kDiffer;
  return Status::kPass;
}
int Report::ExitCode() const {
  switch (Overall()) {
    case Status::kPass: return 0;
    case Status::kDiffer: return 1;
    case Status::kError: return 2;
  }
  return 2;
}

std::vector<const ReportItem*> Report::Ordered() const {
  std::vector<const ReportItem*> out;
  for (const auto& i : items) out.push_back(&i);
  auto rank = [](Status s) { return s == Status::kError ? 0 : s == Status::kDiffer ? 1 : 2; };
  std::stable_sort(out.begin(), out.end(), [&](const ReportItem* x, const ReportItem* y) {
    if (rank(x->status) != rank(y->status)) return rank(x->status) < rank(y->status);
    return x->name < y->name;
  });
  return out;
}

std::string ToText(const Report& r) {
  std::string out;
  for (const ReportItem* it : r.Ordered()) {
    std::string line = std::string(StatusName(it->status)) + "  " + it->name + ": " + Brief(*it);
    if (!it->note.empty()) line += " [" + it->note + "]";
    out += line + "\n";
    for (const auto& reason : it->reasons) out += "        " + reason + "\n";
  }
  char buf[160];
  std::snprintf(buf, sizeof(buf), "%s: %zu compared items, %d pass, %d differ (%d missing, %d extra), %d error\n",
                StatusName(r.Overall()), r.items.size(), r.Count(Status::kPass), r.Count(Status::kDiffer),
                r.CountKind(ItemKind::kMissing), r.CountKind(ItemKind::kExtra), r.Count(Status::kError));
  return out + buf;
}

std::string ToJson(const Report& r) {
  std::string j = "{\n  \"tool\": \"xenotrace diff\",\n";
  j += "  \"a\": " + JsonString(r.a) + ",\n  \"b\": " + JsonString(r.b) + ",\n";
  j += "  \"verdict\": \"" + std::string(StatusName(r.Overall())) + "\",\n";
  j += "  \"exit_code\": " + std::to_string(r.ExitCode()) + ",\n";
  j += "  \"counts\": {\"items\": " + std::to_string(r.items.size()) + ", \"pass\": " +
       std::to_string(r.Count(Status::kPass)) + ", \"differ\": " + std::to_string(r.Count(Status::kDiffer)) +
       ", \"missing\": " + std::to_string(r.CountKind(ItemKind::kMissing)) +
       ", \"extra\": " + std::to_string(r.CountKind(ItemKind::kExtra)) +
       ", \"error\": " + std::to_string(r.Count(Status::kError)) + "},\n";
  j += "  \"items\": [";
  bool first = true;
  for (const ReportItem* it : r.Ordered()) {
    j += first ? "\n" : ",\n";
    first = false;
    j += "    {\"name\": " + JsonString(it->name) + ", \"status\": \"" + StatusName(it->status) + "\", \"kind\": \"" +
         ItemKindName(it->kind) + "\"";
    j += ", \"a\": " + JsonString(it->path_a) + ", \"b\": " + JsonString(it->path_b);
    if (!it->error.empty()) j += ", \"error\": " + JsonString(it->error);
    if (!it->note.empty()) j += ", \"note\": " + JsonString(it->note);
    if (!it->thresholds.empty()) j += ", \"checks\": " + JsonString(it->thresholds);
    j += ", \"reasons\": [";
    for (size_t i = 0; i < it->reasons.size(); ++i) j += (i ? ", " : "") + JsonString(it->reasons[i]);
    j += "]";
    j += ", \"seconds\": " + Num(it->seconds);
    if (it->has_metrics) j += ", \"metrics\": " + MetricsJson(it->metrics);
    if (!it->image_diff.empty())
      j += ", \"images\": {\"a\": " + JsonString(it->image_a) + ", \"b\": " + JsonString(it->image_b) +
           ", \"diff\": " + JsonString(it->image_diff) + ", \"heatmap\": " + JsonString(it->image_heat) + "}";
    j += "}";
  }
  j += "\n  ]\n}\n";
  return j;
}

std::string ToJunit(const Report& r) {
  const int failures = r.Count(Status::kDiffer), errors = r.Count(Status::kError);
  double total = 0;
  for (const auto& it : r.items) total += it.seconds;
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  std::string counts = " tests=\"" + std::to_string(r.items.size()) + "\" failures=\"" + std::to_string(failures) +
                       "\" errors=\"" + std::to_string(errors) + "\" skipped=\"0\" time=\"" + Num(total) + "\"";
  x += "<testsuites name=\"xenotrace diff\"" + counts + ">\n";
  x += "  <testsuite name=\"" + EscapeXml(r.a + " vs " + r.b) + "\"" + counts + ">\n";
  for (const ReportItem* it : r.Ordered()) {
    x += "    <testcase classname=\"xenotrace.diff\" name=\"" + EscapeXml(it->name) + "\" time=\"" + Num(it->seconds) + "\"";
    std::string body;
    if (it->status == Status::kError) {
      body += "      <error message=\"" + EscapeXml(it->error) + "\" type=\"" + ItemKindName(it->kind) + "\"/>\n";
    } else if (it->status == Status::kDiffer) {
      std::string msg = it->kind == ItemKind::kCompared ? (it->reasons.empty() ? "differs" : it->reasons[0]) : Brief(*it);
      std::string detail;
      for (const auto& reason : it->reasons) detail += reason + "\n";
      body += "      <failure message=\"" + EscapeXml(msg) + "\" type=\"" + ItemKindName(it->kind) + "\">" + EscapeXml(detail) +
              "</failure>\n";
    }
    if (it->has_metrics) {
      std::string out = Brief(*it) + "\nchecks: " + it->thresholds + "\n";
      if (!it->note.empty()) out += it->note + "\n";
      body += "      <system-out>" + EscapeXml(out) + "</system-out>\n";
    }
    x += body.empty() ? "/>\n" : ">\n" + body + "    </testcase>\n";
  }
  x += "  </testsuite>\n</testsuites>\n";
  return x;
}

}  // namespace xnt::diff
