// libshaderc / SPIRV-Tools wrappers; see shader_compiler.h.
#include "xnt/vk/translator/shader_compiler.h"

#include <shaderc/shaderc.hpp>
#include <spirv-tools/libspirv.h>

#include <sstream>

#include "xnt/base/error.h"
#include "xnt/vk/translator/spirv_cache.h"

namespace xnt::vk {

namespace {

shaderc_shader_kind ShaderKind(GlslStage stage) {
  switch (stage) {
    case GlslStage::kVertex:
      return shaderc_glsl_vertex_shader;
    case GlslStage::kFragment:
      return shaderc_glsl_fragment_shader;
    case GlslStage::kCompute:
      return shaderc_glsl_compute_shader;
  }
  return shaderc_glsl_vertex_shader;
}

// Appends the numbered source lines the compiler complained about, so an error in generated
// text can be read without dumping the whole shader.
std::string QuoteErrorLines(std::string_view source, const std::string& log) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    lines.push_back(source.substr(start, end - start));
    start = end + 1;
  }
  std::ostringstream out;
  std::istringstream in(log);
  std::string entry;
  int quoted = 0;
  size_t last_line = 0;
  while (std::getline(in, entry) && quoted < 8) {
    // shaderc messages look like "name:LINE: error: ...".
    size_t colon = entry.find(':');
    if (colon == std::string::npos) continue;
    size_t line_end = entry.find(':', colon + 1);
    if (line_end == std::string::npos) continue;
    std::string number = entry.substr(colon + 1, line_end - colon - 1);
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos) continue;
    size_t line = std::stoul(number);
    if (line == 0 || line > lines.size() || line == last_line) continue;
    last_line = line;
    out << "  " << line << " | " << lines[line - 1] << "\n";
    ++quoted;
  }
  return out.str();
}

}  // namespace

std::vector<uint32_t> CompileGlsl(std::string_view source, GlslStage stage, std::string_view name) {
  // The tag names every setting below that changes the words (spirv_cache.h).
  const char* tag = stage == GlslStage::kVertex     ? "translator vert vk1.1 spv1.3 O0 Werror"
                    : stage == GlslStage::kFragment ? "translator frag vk1.1 spv1.3 O0 Werror"
                                                    : "translator comp vk1.1 spv1.3 O0 Werror";
  return CachedSpirv(tag, source, [&] { return CompileGlslNow(source, stage, name); });
}

std::vector<uint32_t> CompileGlslNow(std::string_view source, GlslStage stage,
                                     std::string_view name) {
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  options.SetSourceLanguage(shaderc_source_language_glsl);
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
  options.SetTargetSpirv(shaderc_spirv_version_1_3);
  options.SetOptimizationLevel(shaderc_optimization_level_zero);
  options.SetWarningsAsErrors();
  std::string source_string(source);
  std::string name_string(name);
  shaderc::SpvCompilationResult result = compiler.CompileGlslToSpv(
      source_string.data(), source_string.size(), ShaderKind(stage), name_string.c_str(), "main",
      options);
  if (result.GetCompilationStatus() != shaderc_compilation_status_success) {
    std::string log = result.GetErrorMessage();
    throw Error("GLSL compilation of " + name_string + " failed:\n" + log +
                QuoteErrorLines(source, log));
  }
  return std::vector<uint32_t>(result.cbegin(), result.cend());
}

// The SPIR-V tools are used through their stable C API (the static SPIRV-Tools linked with
// shaderc_combined, see renderer/vulkan/CMakeLists.txt).
namespace {

struct SpvContext {
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_1);
  ~SpvContext() { spvContextDestroy(context); }
  SpvContext() = default;
  SpvContext(const SpvContext&) = delete;
  SpvContext& operator=(const SpvContext&) = delete;
};

std::string DiagnosticText(spv_diagnostic diagnostic) {
  if (!diagnostic) return "(no message)";
  std::string text = "word " + std::to_string(diagnostic->position.index) + ": " +
                     (diagnostic->error ? diagnostic->error : "");
  spvDiagnosticDestroy(diagnostic);
  return text;
}

}  // namespace

std::string DisassembleSpirv(const std::vector<uint32_t>& words) {
  SpvContext context;
  spv_text text = nullptr;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result = spvBinaryToText(
      context.context, words.data(), words.size(),
      SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT, &text,
      &diagnostic);
  if (result != SPV_SUCCESS || !text) {
    if (text) spvTextDestroy(text);
    throw Error("SPIR-V disassembly failed: " + DiagnosticText(diagnostic));
  }
  if (diagnostic) spvDiagnosticDestroy(diagnostic);
  std::string out(text->str, text->length);
  spvTextDestroy(text);
  return out;
}

std::string ValidateSpirv(const std::vector<uint32_t>& words) {
  SpvContext context;
  spv_const_binary_t binary{words.data(), words.size()};
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result = spvValidate(context.context, &binary, &diagnostic);
  if (result == SPV_SUCCESS) {
    if (diagnostic) spvDiagnosticDestroy(diagnostic);
    return {};
  }
  return DiagnosticText(diagnostic);
}

}  // namespace xnt::vk
