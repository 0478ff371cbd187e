// Render-path benchmark (see render_bench.h).
#include "bench_scene.h"
#include "bench_stats.h"
#include "xnt/bench/render_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include <unistd.h>

#include "xnt/base/error.h"
#include "xnt/format/reader.h"
#include "xnt/format/writer.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"
#include "xnt/ucode/assembler.h"

namespace xnt::bench {

namespace {

// Ten instructions per pixel: the fetch and nine ALU ops.
const char* const kTexturedPs = XNT_SAMPLE_PS_HEAD R"(    exec
    tfetch2D r1, r0.xy, tf0
    mul r2, r1, c0
    add r2, r2, c1
    mad r3, r2, c2, r1
    max r3, r3, c3
    exec
    min r3, r3, c4
    dp3 r4.x, r3.xyz, c5.xyz
    mul r4.yzw, r3.yzw, c6.yzw
    add r4, r4, r3
    alloc colors
    exece
    mul oC0, r4, c7
)";

samples::ShaderScene Scene(bool fullscreen, const RenderBenchOptions& o) {
  samples::ShaderScene s;
  s.width = o.width;
  s.height = o.height;
  s.clear_rgba = {16, 32, 48, 255};
  s.vs_microcode = ucode::Assemble(samples::kPositionTexcoordVertexShader);
  s.ps_microcode = ucode::Assemble(fullscreen ? kTexturedPs : samples::kConstantColorPixelShader);
  s.vs_exports = 1;
  if (fullscreen) {
    s.textures.push_back(HashedTexture());
    samples::ShaderDraw d;
    d.primitive = xenos::PrimitiveType::kTriangleList;
    d.vertex_count = 6;
    AddTexturedRect(d.vertex_words, 0.0f, 0.0f, float(o.width), float(o.height), o.width, o.height);
    const ucode::Float4 c[8] = {{0.9f, 0.8f, 0.7f, 1.0f}, {0.01f, 0.02f, 0.03f, 0.0f},
                                {0.5f, 0.5f, 0.5f, 0.5f}, {0.0f, 0.0f, 0.0f, 0.0f},
                                {1.0f, 1.0f, 1.0f, 1.0f}, {0.1f, 0.2f, 0.3f, 0.0f},
                                {0.9f, 0.9f, 0.9f, 0.9f}, {0.6f, 0.6f, 0.6f, 1.0f}};
    for (uint32_t i = 0; i < 8; ++i) d.ps_constants.push_back({i, c[i]});
    s.draws.push_back(d);
    return s;
  }
  const uint32_t per_row = std::max(1u, o.width / 10);
  for (uint32_t i = 0; i < o.small_draws; ++i) {
    samples::ShaderDraw d;
    d.vertex_count = 6;
    const float x = float((i % per_row) * 10 + 1), y = float(((i / per_row) * 10 + 1) % (o.height - 9));
    AddTexturedRect(d.vertex_words, x, y, x + 8.0f, y + 8.0f, o.width, o.height);
    d.ps_constants.push_back({0, {float(i % 7) / 7.0f, 0.5f, 0.25f, 1.0f}});
    s.draws.push_back(d);
  }
  return s;
}

std::vector<format::Record> Records(const samples::ShaderScene& scene) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("xnt_render_bench_" + std::to_string(::getpid()) + ".xnt");
  {
    format::WriterOptions wo;
    wo.threads = 1;
    auto writer = format::Writer::Create(file.string(), samples::SampleTraceInfo(), wo);
    samples::AuthorShaderScene(scene, *writer);
    writer->Finish();
  }
  std::vector<format::Record> records;
  format::Reader::Open(file.string())->ForEachRecord([&](const format::Record& r) {
    records.push_back(r);
    return true;
  });
  std::filesystem::remove(file);
  return records;
}

}  // namespace

std::vector<RenderBenchResult> RunRenderBench(const RenderBenchOptions& o) {
  std::vector<RenderBenchResult> out;
  for (bool fullscreen : {true, false}) {
    const samples::ShaderScene scene = Scene(fullscreen, o);
    const std::vector<format::Record> records = Records(scene);
    for (const std::string& path_name : o.paths) {
      RenderBenchResult r;
      r.scene = fullscreen ? "fullscreen" : "small_draws";
      r.path = path_name;
      r.draws = uint32_t(scene.draws.size());
      r.pixels = fullscreen ? uint64_t(o.width) * o.height : uint64_t(o.small_draws) * 64;
      if (o.progress) o.progress(r.scene + " on " + path_name);
      std::vector<double> times, draw_times, cpu_times, draw_cpu_times, resolve_times, resolve_cpu_times;
      try {
        renderer::SessionOptions so;
        so.path = *renderer::ParsePath(path_name);
        so.device_index = o.device_index;
        so.threads = o.threads;
        const bool synchronous = so.path == renderer::Path::kCpu;
        // Wall and CPU time inside the draws and inside the resolves (copies and clears), each
        // summed over the replay.
        double in_draws = 0.0, in_draws_cpu = 0.0, in_resolves = 0.0, in_resolves_cpu = 0.0;
        double event_start_cpu = 0.0;
        std::chrono::steady_clock::time_point event_start;
        if (synchronous) {
          so.on_draw_event = [&](const renderer::DrawEvent& e) {
            if (!e.after) {
              event_start = std::chrono::steady_clock::now();
              event_start_cpu = ProcessCpuSeconds();
              return;
            }
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - event_start).count();
            const double cpu = ProcessCpuSeconds() - event_start_cpu;
            (e.resolve ? in_resolves : in_draws) += wall;
            (e.resolve ? in_resolves_cpu : in_draws_cpu) += cpu;
          };
        }
        for (uint32_t rep = 0; rep <= o.repeats; ++rep) {
          in_draws = in_draws_cpu = in_resolves = in_resolves_cpu = 0.0;
          auto session = renderer::Session::Create(so);
          r.device = session->device_name();
          replay::TracePlayer player(session->backend());
          session->Attach(player);
          const auto start = std::chrono::steady_clock::now();
          const double start_cpu = ProcessCpuSeconds();
          for (const format::Record& rec : records) player.Apply(rec);
          session->Flush();
          const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          const double cpu = ProcessCpuSeconds() - start_cpu;
          if (rep > 0) {  // the first replay warms caches (shader compiles)
            times.push_back(s);
            cpu_times.push_back(cpu);
          }
          if (rep > 0 && synchronous) {
            draw_times.push_back(in_draws);
            draw_cpu_times.push_back(in_draws_cpu);
            resolve_times.push_back(in_resolves);
            resolve_cpu_times.push_back(in_resolves_cpu);
          }
        }
      } catch (const Error& e) {
        r.error = e.what();
        out.push_back(r);
        continue;
      }
      std::sort(times.begin(), times.end());
      r.median_seconds = times[times.size() / 2];
      r.min_seconds = times.front();
      r.max_seconds = times.back();
      r.pixels_per_second = r.median_seconds > 0 ? double(r.pixels) / r.median_seconds : 0.0;
      r.seconds_per_draw = r.draws ? r.median_seconds / r.draws : 0.0;
      r.cpu_seconds = Median(cpu_times);
      r.draw_cpu_seconds = Median(draw_cpu_times);
      r.resolve_seconds = Median(resolve_times);
      r.resolve_cpu_seconds = Median(resolve_cpu_times);
      if (!draw_times.empty()) {
        std::sort(draw_times.begin(), draw_times.end());
        r.draw_seconds = draw_times[draw_times.size() / 2];
        r.draw_pixels_per_second = r.draw_seconds > 0 ? double(r.pixels) / r.draw_seconds : 0.0;
      }
      out.push_back(r);
    }
  }
  return out;
}

}  // namespace xnt::bench
