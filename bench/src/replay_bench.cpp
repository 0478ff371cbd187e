// Replay benchmark (see replay_bench.h).
#include "bench_scene.h"
#include "bench_stats.h"
#include "texture_scene.h"
#include "xnt/bench/capture_trace.h"
#include "xnt/bench/replay_bench.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "xnt/base/error.h"
#include "xnt/format/reader.h"
#include "xnt/format/writer.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"
#include "xnt/ucode/assembler.h"

namespace xnt::bench {

namespace {

using Clock = std::chrono::steady_clock;
double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// N right triangles of 6 pixels on a side in rows across a 320x240 target, each with its own
// colour constant and its own vertex data, as a game's many small draws are.
samples::ShaderScene FlatScene(uint32_t draws) {
  samples::ShaderScene s;
  s.clear_rgba = {16, 32, 48, 255};
  s.vs_microcode = ucode::Assemble(samples::kPositionTexcoordVertexShader);
  s.ps_microcode = ucode::Assemble(samples::kConstantColorPixelShader);
  const uint32_t per_row = s.width / 8, rows = (s.height - 8) / 8;
  for (uint32_t i = 0; i < draws; ++i) {
    samples::ShaderDraw d;
    d.vertex_count = 3;
    const float x = float((i % per_row) * 8 + 1), y = float(((i / per_row) % rows) * 8 + 1);
    AddVertex(d.vertex_words, x, y, 0.0f, 0.0f, s.width, s.height);
    AddVertex(d.vertex_words, x + 6.0f, y, 0.0f, 0.0f, s.width, s.height);
    AddVertex(d.vertex_words, x, y + 6.0f, 0.0f, 0.0f, s.width, s.height);
    d.ps_constants.push_back(
        {0, {float(i % 7) / 7.0f, float(i % 5) / 5.0f, float(i % 3) / 3.0f, 1.0f}});
    s.draws.push_back(d);
  }
  return s;
}

// Four quads, one per quadrant of a 320x240 target, sampling one 32x32 texture.
samples::ShaderScene TexturedScene() {
  samples::ShaderScene s;
  s.clear_rgba = {0, 0, 0, 255};
  s.vs_microcode = ucode::Assemble(samples::kPositionTexcoordVertexShader);
  s.ps_microcode = ucode::Assemble(samples::TexturedPixelShader(samples::TexturedQuadFetch::k2D));
  s.textures.push_back(HashedTexture());
  for (uint32_t q = 0; q < 4; ++q) {
    samples::ShaderDraw d;
    d.vertex_count = 6;
    const float x0 = float((q % 2) * 160), y0 = float((q / 2) * 120);
    AddTexturedRect(d.vertex_words, x0, y0, x0 + 160.0f, y0 + 120.0f, s.width, s.height);
    s.draws.push_back(d);
  }
  return s;
}

// The whole trace, or an Error: a file without its footer (a capture cut short, a truncated copy)
// is refused rather than timed on the part of it a scan recovers.
std::vector<format::Record> ReadRecords(const std::string& file) {
  std::vector<format::Record> records;
  format::ReaderOptions whole;
  whole.allow_recovery = false;
  format::Reader::Open(file, whole)->ForEachRecord([&](const format::Record& r) {
    records.push_back(r);
    return true;
  });
  return records;
}

// Written to a file and read back, so the records are exactly what a trace holds: a temporary
// file, or `save_dir`/NAME.xnt kept when the caller asked for the traces.
std::vector<format::Record> SceneRecords(const samples::ShaderScene& scene, const std::string& name,
                                         const std::string& save_dir) {
  const std::filesystem::path file =
      save_dir.empty() ? std::filesystem::temp_directory_path() /
                             ("xnt_replay_bench_" + std::to_string(::getpid()) + ".xnt")
                       : std::filesystem::path(save_dir) / (name + ".xnt");
  {
    format::WriterOptions wo;
    wo.threads = 1;
    auto writer = format::Writer::Create(file.string(), samples::SampleTraceInfo(), wo);
    samples::AuthorShaderScene(scene, *writer);
    writer->Finish();
  }
  std::vector<format::Record> records = ReadRecords(file.string());
  if (save_dir.empty()) std::filesystem::remove(file);
  return records;
}

uint64_t PeakRssBytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return uint64_t(u.ru_maxrss) * 1024;  // Linux reports KiB
}

struct Case {
  std::string name;
  std::vector<format::Record> records;
};

// One case on one render path: its session, and what its replays measured so far. The first
// Replay() is the cold one. Not movable: the session's callbacks point into it.
class CaseRun {
 public:
  CaseRun(const Case& c, const std::string& path_name, const ReplayBenchOptions& o) : case_(c) {
    r_.name = c.name;
    r_.path = path_name;
    renderer::SessionOptions so;
    so.path = *renderer::ParsePath(path_name);
    so.device_index = o.device_index;
    so.fsi_unordered = o.fsi_unordered && so.path == renderer::Path::kFsi;
    so.gpu_stage_timestamps = o.gpu_profile;
    so.initial_ring_bytes = o.initial_ring_bytes;
    so.keep_device = false;  // each case's cold replay as a new process's
    so.on_draw_event = [this](const renderer::DrawEvent& e) {
      if (!e.after) {
        draw_start_ = Clock::now();
        return;
      }
      in_draws_ += Seconds(draw_start_, Clock::now());
      if (!e.resolve) ++draws_;
    };
    so.on_frame_end = [this](const replay::FrameEndCall&) { ++frames_; };
    const auto t0 = Clock::now();
    session_ = renderer::Session::Create(so);
    r_.startup_seconds = Seconds(t0, Clock::now());
    r_.device = session_->device_name();
    player_ = std::make_unique<replay::TracePlayer>(session_->backend());
    session_->Attach(*player_);
  }
  CaseRun(const CaseRun&) = delete;
  CaseRun& operator=(const CaseRun&) = delete;

  void Replay() {
    in_draws_ = 0.0;
    draws_ = frames_ = 0;
    const double cpu = ProcessCpuSeconds();
    const double gpu = session_->gpu_seconds();
    const auto stages = session_->gpu_stage_seconds();
    const auto submitted = session_->submission_stats();
    const auto a = Clock::now();
    for (const format::Record& rec : case_.records) player_->Apply(rec);
    const auto b = Clock::now();
    session_->Flush();
    const auto f = Clock::now();
    if (!replayed_) {
      replayed_ = true;
      r_.cold_seconds = Seconds(a, f);
      cold_draws_ = in_draws_;
      r_.draws = draws_;
      r_.frames = frames_;
      return;
    }
    warm_.push_back(Seconds(a, f));
    r_.warm_cpu_each.push_back(ProcessCpuSeconds() - cpu);
    warm_draws_.push_back(in_draws_);
    warm_flush_.push_back(Seconds(b, f));
    if (gpu >= 0.0) warm_gpu_.push_back(session_->gpu_seconds() - gpu);
    if (const auto now = session_->submission_stats(); now && submitted) {
      warm_submissions_.push_back(double(now->submissions - submitted->submissions));
      warm_fills_.push_back(double(now->ring_fills - submitted->ring_fills));
    }
    if (const auto now = session_->gpu_stage_seconds(); now && stages) {
      warm_uploads_.push_back(now->uploads - stages->uploads);
      warm_gpu_draws_.push_back(now->draws - stages->draws);
      warm_resolves_.push_back(now->resolves - stages->resolves);
    }
  }

  // Medians of the warm replays; ends the session (peak RSS is read after it).
  ReplayBenchResult Finish() {
    ReplayBenchResult& r = r_;
    r.warm_seconds = Median(warm_);
    r.warm_cpu_seconds = Median(r.warm_cpu_each);
    const double d = r.draws ? double(r.draws) : 1.0;
    const double draw_s = Median(warm_draws_), flush_s = Median(warm_flush_);
    r.recording_us_per_draw = draw_s / d * 1e6;
    r.submission_us_per_draw = flush_s / d * 1e6;
    r.front_end_us_per_draw = std::max(0.0, r.warm_seconds - draw_s - flush_s) / d * 1e6;
    r.translation_us_per_draw = std::max(0.0, cold_draws_ - draw_s) / d * 1e6;
    if (!warm_gpu_.empty() && r.frames > 0) {
      r.gpu_seconds_per_frame = Median(warm_gpu_) / double(r.frames);
    }
    if (!warm_uploads_.empty() && r.frames > 0) {
      r.gpu_uploads_seconds_per_frame = Median(warm_uploads_) / double(r.frames);
      r.gpu_draws_seconds_per_frame = Median(warm_gpu_draws_) / double(r.frames);
      r.gpu_resolves_seconds_per_frame = Median(warm_resolves_) / double(r.frames);
    }
    if (const auto s = session_->submission_stats(); s && r.frames > 0) {
      r.submissions_per_frame = Median(warm_submissions_) / double(r.frames);
      r.ring_fills_per_frame = Median(warm_fills_) / double(r.frames);
      r.peak_submission_ring_bytes = s->peak_ring_bytes;
      r.ring_bytes = s->ring_bytes;
    }
    r.frames_per_second = r.warm_seconds > 0 ? double(r.frames) / r.warm_seconds : 0.0;
    r.draws_per_second = r.warm_seconds > 0 ? double(r.draws) / r.warm_seconds : 0.0;
    player_.reset();
    session_.reset();
    r.peak_rss_bytes = PeakRssBytes();
    return r;
  }

 private:
  const Case& case_;
  ReplayBenchResult r_;
  std::unique_ptr<renderer::Session> session_;
  std::unique_ptr<replay::TracePlayer> player_;
  double in_draws_ = 0.0, cold_draws_ = 0.0;
  uint64_t draws_ = 0, frames_ = 0;
  Clock::time_point draw_start_;
  bool replayed_ = false;
  std::vector<double> warm_, warm_draws_, warm_flush_, warm_gpu_;
  std::vector<double> warm_uploads_, warm_gpu_draws_, warm_resolves_, warm_submissions_, warm_fills_;
};

ReplayBenchResult Failed(const Case& c, const std::string& path_name, const Error& e) {
  ReplayBenchResult r;
  r.name = c.name;
  r.path = path_name;
  r.error = e.what();
  return r;
}

// Each case on each path in turn, all its replays at once: one case's records and session in
// memory at a time (a 20,000-draw case is tens of MiB of records).
void RunOneAfterAnother(const Case& c, const ReplayBenchOptions& o, std::vector<ReplayBenchResult>& out) {
  for (const std::string& path_name : o.paths) {
    if (o.progress) o.progress(c.name + " on " + path_name);
    try {
      CaseRun run(c, path_name, o);
      for (uint32_t rep = 0; rep <= o.repeats; ++rep) run.Replay();
      out.push_back(run.Finish());
    } catch (const Error& e) {
      out.push_back(Failed(c, path_name, e));
    }
  }
}

// Per path, every case's session at once and their warm replays in rounds (each case's replay
// r, then each case's replay r + 1): a slow spell of a shared machine then falls on every case of
// a round alike, and the ratios between cases compare replays measured side by side.
void RunInterleaved(const std::vector<Case>& cases, const ReplayBenchOptions& o,
                    std::vector<ReplayBenchResult>& out) {
  std::vector<std::vector<ReplayBenchResult>> by_case(cases.size());
  for (const std::string& path_name : o.paths) {
    std::vector<std::unique_ptr<CaseRun>> runs(cases.size());
    auto fail = [&](size_t i, const Error& e) {
      runs[i].reset();
      by_case[i].push_back(Failed(cases[i], path_name, e));
    };
    for (size_t i = 0; i < cases.size(); ++i) {
      if (o.progress) o.progress(cases[i].name + " on " + path_name + " (cold)");
      try {
        runs[i] = std::make_unique<CaseRun>(cases[i], path_name, o);
        runs[i]->Replay();
      } catch (const Error& e) {
        fail(i, e);
      }
    }
    for (uint32_t rep = 0; rep < o.repeats; ++rep) {
      if (o.progress) o.progress(path_name + ": round " + std::to_string(rep + 1) + " of " + std::to_string(o.repeats));
      for (size_t i = 0; i < cases.size(); ++i) {
        if (!runs[i]) continue;
        try {
          runs[i]->Replay();
        } catch (const Error& e) {
          fail(i, e);
        }
      }
    }
    for (size_t i = 0; i < cases.size(); ++i) {
      if (!runs[i]) continue;
      try {
        by_case[i].push_back(runs[i]->Finish());
        by_case[i].back().interleaved = true;
      } catch (const Error& e) {
        fail(i, e);
      }
      runs[i].reset();
    }
  }
  for (std::vector<ReplayBenchResult>& results : by_case) {
    for (ReplayBenchResult& r : results) out.push_back(std::move(r));
  }
}

}  // namespace

std::vector<ReplayBenchResult> RunReplayBench(const ReplayBenchOptions& o) {
  if (o.repeats == 0) throw Error("bench replay: repeats must be at least 1");
  std::vector<ReplayBenchResult> out;
  std::vector<Case> kept;  // interleaved: every case, run together at the end
  auto run = [&](Case c) {
    if (o.interleave) {
      kept.push_back(std::move(c));
    } else {
      RunOneAfterAnother(c, o, out);
    }
  };
  if (!o.samples.empty()) {
    std::vector<const samples::Sample*> chosen;
    for (const std::string& name : o.samples) {
      if (name == "all") {
        for (const samples::Sample& sample : samples::Registry()) chosen.push_back(&sample);
      } else if (const samples::Sample* sample = samples::Find(name)) {
        chosen.push_back(sample);
      } else {
        throw Error("bench replay: no sample named '" + name + "'");
      }
    }
    for (const samples::Sample* sample : chosen) {
      const std::filesystem::path file =
          std::filesystem::temp_directory_path() /
          ("xnt_replay_bench_" + std::to_string(::getpid()) + "_" + sample->name + ".xnt");
      samples::WriteSample(*sample, file.string());
      std::vector<format::Record> records = ReadRecords(file.string());
      std::filesystem::remove(file);
      run(Case{sample->name, std::move(records)});
    }
  } else if (o.traces.empty()) {
    run(Case{"textured_4", SceneRecords(TexturedScene(), "textured_4", o.save_traces_dir)});
    for (uint32_t n : o.flat_draws) {
      const std::string name = "flat_" + std::to_string(n);
      run(Case{name, SceneRecords(FlatScene(n), name, o.save_traces_dir)});
    }
    for (uint32_t n : o.capture_draws) {
      for (const std::string& variant : o.capture_variants) {
        CaptureTraceShape shape;
        shape.frames = o.capture_frames;
        shape.draws_per_frame = n;
        ApplyCaptureVariant(variant, shape);
        const std::string name = CaptureCaseName(shape);
        if (!o.save_traces_dir.empty()) {
          WriteCaptureTrace(shape, (std::filesystem::path(o.save_traces_dir) / (name + ".xnt")).string());
        }
        run(Case{name, CaptureTraceRecords(shape)});
      }
    }
  } else {
    for (const std::string& t : o.traces) {
      Case c{std::filesystem::path(t).filename().string(), {}};
      try {
        c.records = ReadRecords(t);
      } catch (const Error& e) {
        // Not run on any path, said per path as a case that fails to replay is.
        for (const std::string& path_name : o.paths) out.push_back(Failed(c, path_name, e));
        continue;
      }
      run(std::move(c));
    }
  }
  if (o.interleave) RunInterleaved(kept, o, out);
  return out;
}

std::vector<BenchRatio> ReplayBenchRatios(const std::vector<ReplayBenchResult>& results) {
  // Every later case over every earlier one of the same path: per-draw cost shows in
  // flat_2000/flat_200, fixed per-replay cost against the 4-draw case.
  std::vector<BenchRatio> ratios;
  for (size_t j = 0; j < results.size(); ++j) {
    const ReplayBenchResult& a = results[j];
    if (!a.error.empty() || a.warm_cpu_seconds <= 0) continue;
    for (size_t i = 0; i < j; ++i) {
      const ReplayBenchResult& b = results[i];
      if (b.path != a.path || !b.error.empty() || b.warm_cpu_seconds <= 0) continue;
      double value = a.warm_cpu_seconds / b.warm_cpu_seconds;
      if (a.interleaved && b.interleaved && a.warm_cpu_each.size() == b.warm_cpu_each.size()) {
        // Replays of one round were measured side by side: the median of the rounds' ratios.
        std::vector<double> each;
        for (size_t k = 0; k < a.warm_cpu_each.size(); ++k) {
          if (b.warm_cpu_each[k] > 0) each.push_back(a.warm_cpu_each[k] / b.warm_cpu_each[k]);
        }
        if (!each.empty()) value = Median(each);
      }
      ratios.push_back({a.path + ":" + a.name + "/" + b.name, value});
    }
  }
  return ratios;
}

std::string BaselineJson(const std::vector<BenchRatio>& ratios, double tolerance) {
  std::string out = "{\n  \"tolerance\": " + std::to_string(tolerance) + ",\n  \"ratios\": {";
  for (size_t i = 0; i < ratios.size(); ++i) {
    char value[64];
    std::snprintf(value, sizeof(value), "%.4f", ratios[i].value);
    out += std::string(i ? "," : "") + "\n    \"" + ratios[i].name + "\": " + value;
  }
  return out + "\n  }\n}\n";
}

std::vector<std::string> CheckBaseline(std::string_view json, const std::vector<BenchRatio>& ratios) {
  // The file is the one BaselineJson writes: "tolerance": x and "ratios": {"name": value, ...}.
  // Names hold no quotes or backslashes, so a small scanner reads it.
  std::vector<std::string> problems;
  auto number_after = [&](size_t pos, double& value) {
    pos = json.find(':', pos);
    if (pos == std::string_view::npos) return false;
    const std::string rest(json.substr(pos + 1, 40));
    char* end = nullptr;
    value = std::strtod(rest.c_str(), &end);
    return end != rest.c_str();
  };
  double tolerance = 0.2;
  const size_t tol = json.find("\"tolerance\"");
  if (tol != std::string_view::npos && !number_after(tol, tolerance)) {
    problems.push_back("baseline: \"tolerance\" is not a number");
    return problems;
  }
  const size_t start = json.find("\"ratios\"");
  const size_t open = start == std::string_view::npos ? start : json.find('{', start);
  const size_t close = open == std::string_view::npos ? open : json.find('}', open);
  if (close == std::string_view::npos) {
    problems.push_back("baseline: no \"ratios\" object");
    return problems;
  }
  size_t pos = open + 1;
  size_t compared = 0;
  while (true) {
    const size_t q0 = json.find('"', pos);
    if (q0 == std::string_view::npos || q0 > close) break;
    const size_t q1 = json.find('"', q0 + 1);
    if (q1 == std::string_view::npos || q1 > close) break;
    const std::string name(json.substr(q0 + 1, q1 - q0 - 1));
    double expected = 0.0;
    if (!number_after(q1, expected) || expected <= 0) {
      problems.push_back("baseline: ratio " + name + " has no positive value");
      break;
    }
    pos = json.find_first_of(",}", q1);
    if (pos == std::string_view::npos) break;
    ++pos;
    auto it = std::find_if(ratios.begin(), ratios.end(), [&](const BenchRatio& r) { return r.name == name; });
    if (it == ratios.end()) {
      problems.push_back(name + ": not measured in this run (a case failed or was not selected)");
      continue;
    }
    ++compared;
    if (it->value > expected * (1.0 + tolerance)) {
      char line[256];
      std::snprintf(line, sizeof(line), "%s: %.3f is %.0f %% above the baseline %.3f (limit +%.0f %%)",
                    name.c_str(), it->value, (it->value / expected - 1.0) * 100.0, expected,
                    tolerance * 100.0);
      problems.push_back(line);
    }
  }
  if (compared == 0 && problems.empty()) problems.push_back("baseline: no ratio compared");
  return problems;
}

}  // namespace xnt::bench
