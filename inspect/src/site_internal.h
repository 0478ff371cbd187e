// What the site writer's parts share (inspect/src only).
#pragma once

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "xnt/base/json.h"
#include "xnt/diff/image.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/backend.h"
#include "xnt/replay/register_file.h"

namespace xnt::inspect {

// Writes `<dir>/<rel>` (folders made), counting files and bytes for the summary.
class SiteFiles {
 public:
  explicit SiteFiles(std::filesystem::path root) : root_(std::move(root)) {}
  void Write(const std::string& rel, std::string_view bytes);
  // A data chunk: `rel` holding one call `fn(json);`, the way a file:// page loads data.
  void WriteScript(const std::string& rel, const char* fn, const Json& value);
  const std::filesystem::path& root() const { return root_; }
  uint64_t files() const { return files_; }
  uint64_t bytes() const { return bytes_; }

 private:
  std::filesystem::path root_;
  uint64_t files_ = 0, bytes_ = 0;
};

// PNGs of targets and textures, named by the hash of their encoded bytes (a texture bound by
// many draws is written once), within a byte budget.
class ImageWriter {
 public:
  ImageWriter(SiteFiles& files, uint64_t budget) : files_(files), budget_(budget) {}
  // The image's relative path, or "" when it would pass the budget (`over_budget` is then set).
  std::string Write(const diff::Image& image);
  // Counts `bytes` of other data (a target's guest bits) against the budget; false when they
  // would pass it.
  bool Reserve(uint64_t bytes);
  bool over_budget() const { return over_budget_; }
  void ResetOverBudget() { over_budget_ = false; }
  uint64_t images() const { return written_.size(); }
  uint64_t bytes() const { return bytes_; }

 private:
  SiteFiles& files_;
  uint64_t budget_;
  uint64_t bytes_ = 0;
  bool over_budget_ = false;
  std::set<uint64_t> written_;
};

// The named control registers (register_table.inc's, not the constant areas, which the shader
// and fetch panels show) with their hardware block, as the state panel groups them.
class RegisterState {
 public:
  RegisterState();
  // Indices whose value differs from the previous call's (every non-zero one on the first call).
  std::vector<uint32_t> Changes(const replay::RegisterFile& regs);
  // Every named register that is not zero now: the state a chunk starts from.
  Json Full(const replay::RegisterFile& regs) const;
  // [index, name, "0x...", "field=value ..."], decoded as `dump` decodes it.
  static Json Entry(uint32_t index, uint32_t value);
  // "RB", "PA", "VGT", "SQ", ... (the name up to its first '_').
  static std::string Block(std::string_view name);

 private:
  std::vector<uint32_t> named_;
  std::vector<uint32_t> previous_;
  bool first_ = true;
};

// One shader, written once per hash: its listing, the chosen path's translation, its analysis.
Json ShaderJson(const replay::Shader& shader, renderer::Path path);
// The float / bool / loop constants the shader reads, with their values now.
Json ConstantsRead(const replay::Shader& shader, const replay::RegisterFile& regs);
// The vertex fetch constants the vertex shader uses, each vfetch's first `rows` vertices decoded
// in its format, and the draw's first `rows` indices after offset and clamp.
Json VertexFetchJson(const replay::DrawCall& draw, uint32_t rows);
Json IndexJson(const replay::DrawCall& draw, uint32_t rows);
// Every texture fetch constant the draw's shaders use, decoded, each mip level a thumbnail
// (`images` null: described only).
Json TexturesJson(const replay::DrawCall& draw, ImageWriter* images);
// The targets the event writes as the session holds them now (compare::SnapshotEventTargets):
// colour decoded, depth/stencil in false colour, guest bits for the value picker of small ones.
// `key` names the bits scripts; `with_bits`: write them (the value picker reads the after state).
Json TargetsJson(renderer::Session& session, const renderer::DrawEvent& event,
                 ImageWriter& images, SiteFiles& files, const std::string& key, bool with_bits);

}  // namespace xnt::inspect
