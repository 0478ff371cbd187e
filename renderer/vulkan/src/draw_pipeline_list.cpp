// The draw pipelines a trace's replay asked for, on disk (see draw_pipeline_list.h).
#include "xnt/vk/draw_pipeline_list.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <utility>

#include "xnt/base/atomic_file.h"
#include "xnt/vk/pipeline_cache_file.h"
#include "xnt/vk/translator/spirv_cache.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

namespace {

constexpr char kListMagic[8] = {'X', 'N', 'T', 'V', 'K', 'D', 'L', '1'};
// Raised whenever PipelineKey's fields change meaning (its size alone is checked too).
constexpr uint32_t kListLayoutVersion = 1;
constexpr size_t kListHeaderSize = 8 + 4 + 4 + 8 + 8;
constexpr uint32_t kListSpirvMagic = 0x07230203u;

void PutListWord(std::vector<uint8_t>& out, uint32_t v) {
  const size_t at = out.size();
  out.resize(at + 4);
  std::memcpy(out.data() + at, &v, 4);
}

// Reads from a payload, refusing to run past its end.
struct ListCursor {
  const uint8_t* p;
  size_t left;
  bool Read(void* out, size_t n) {
    if (n > left) return false;
    std::memcpy(out, p, n);
    p += n;
    left -= n;
    return true;
  }
  bool Read32(uint32_t& v) { return Read(&v, 4); }
};

PipelineKey WithoutModules(PipelineKey key) {
  key.vertex_shader = VK_NULL_HANDLE;
  key.pixel_shader = VK_NULL_HANDLE;
  key.quad_shader = VK_NULL_HANDLE;
  return key;
}

}  // namespace

bool DrawPipelineList::operator==(const DrawPipelineList& o) const {
  if (modules != o.modules || pipelines.size() != o.pipelines.size()) return false;
  for (size_t i = 0; i < pipelines.size(); ++i) {
    const StoredDrawPipeline &a = pipelines[i], &b = o.pipelines[i];
    if (a.vertex_shader != b.vertex_shader || a.pixel_shader != b.pixel_shader ||
        a.quad_shader != b.quad_shader || !(a.key == b.key)) {
      return false;
    }
  }
  return true;
}

std::string DrawPipelineListPath(const VulkanContext& context, std::string_view trace_id) {
  const std::string folder = SpirvCacheDirectory();
  if (folder.empty() || trace_id.empty()) return {};
  VkPhysicalDeviceProperties properties{};
  vkGetPhysicalDeviceProperties(context.physical_device(), &properties);
  return (std::filesystem::path(folder) /
          ("vk-draws-" + std::string(trace_id) + "-" + DeviceCacheName(properties) + ".bin"))
      .string();
}

std::vector<uint8_t> EncodeDrawPipelineList(const DrawPipelineList& list) {
  std::vector<uint8_t> out(kListHeaderSize);
  PutListWord(out, uint32_t(list.modules.size()));
  for (const std::vector<uint32_t>& words : list.modules) {
    PutListWord(out, uint32_t(words.size()));
    const size_t at = out.size();
    out.resize(at + words.size() * 4);
    std::memcpy(out.data() + at, words.data(), words.size() * 4);
  }
  PutListWord(out, uint32_t(list.pipelines.size()));
  for (const StoredDrawPipeline& p : list.pipelines) {
    PutListWord(out, p.vertex_shader);
    PutListWord(out, p.pixel_shader);
    PutListWord(out, p.quad_shader);
    const PipelineKey key = WithoutModules(p.key);
    const size_t at = out.size();
    out.resize(at + sizeof(key));
    std::memcpy(out.data() + at, &key, sizeof(key));
  }
  const uint64_t payload = out.size() - kListHeaderSize;
  const uint64_t hash = XXH3_64bits(out.data() + kListHeaderSize, payload);
  const uint32_t version = kListLayoutVersion, key_size = sizeof(PipelineKey);
  std::memcpy(out.data(), kListMagic, 8);
  std::memcpy(out.data() + 8, &version, 4);
  std::memcpy(out.data() + 12, &key_size, 4);
  std::memcpy(out.data() + 16, &payload, 8);
  std::memcpy(out.data() + 24, &hash, 8);
  return out;
}

std::optional<DrawPipelineList> DecodeDrawPipelineList(const std::vector<uint8_t>& bytes) {
  if (bytes.size() < kListHeaderSize || std::memcmp(bytes.data(), kListMagic, 8) != 0) return std::nullopt;
  uint32_t version = 0, key_size = 0;
  uint64_t payload = 0, hash = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  std::memcpy(&key_size, bytes.data() + 12, 4);
  std::memcpy(&payload, bytes.data() + 16, 8);
  std::memcpy(&hash, bytes.data() + 24, 8);
  if (version != kListLayoutVersion || key_size != sizeof(PipelineKey) ||
      payload != bytes.size() - kListHeaderSize ||
      XXH3_64bits(bytes.data() + kListHeaderSize, payload) != hash) {
    return std::nullopt;
  }
  ListCursor c{bytes.data() + kListHeaderSize, size_t(payload)};
  DrawPipelineList list;
  uint32_t count = 0;
  if (!c.Read32(count) || count > kMaxListedModules) return std::nullopt;
  list.modules.resize(count);
  for (std::vector<uint32_t>& words : list.modules) {
    uint32_t n = 0;
    if (!c.Read32(n) || n == 0 || n > kMaxListedModuleWords || size_t(n) * 4 > c.left) {
      return std::nullopt;
    }
    words.resize(n);
    c.Read(words.data(), size_t(n) * 4);
    if (words[0] != kListSpirvMagic) return std::nullopt;
  }
  if (!c.Read32(count) || count > kMaxListedPipelines) return std::nullopt;
  list.pipelines.resize(count);
  const uint32_t modules = uint32_t(list.modules.size());
  for (StoredDrawPipeline& p : list.pipelines) {
    if (!c.Read32(p.vertex_shader) || !c.Read32(p.pixel_shader) || !c.Read32(p.quad_shader) ||
        !c.Read(&p.key, sizeof(p.key))) {
      return std::nullopt;
    }
    // A vertex shader always; the others in the table or none.
    if (p.vertex_shader >= modules) return std::nullopt;
    for (uint32_t index : {p.pixel_shader, p.quad_shader}) {
      if (index != StoredDrawPipeline::kNoModule && index >= modules) return std::nullopt;
    }
    if (!(p.key == WithoutModules(p.key))) return std::nullopt;
    // Fields a driver takes as enums: a value no replay writes is damage.
    const PipelineKey& k = p.key;
    if (k.topology > uint32_t(gpu::HostTopology::kRectangleList) ||
        k.polygon_mode > uint32_t(VK_POLYGON_MODE_POINT) ||
        (k.samples != 1 && k.samples != 2 && k.samples != 4 && k.samples != 8) ||
        k.depth_clamp > 1) {
      return std::nullopt;
    }
  }
  if (c.left != 0) return std::nullopt;
  return list;
}

std::optional<DrawPipelineList> LoadDrawPipelineList(const std::string& path) {
  std::vector<uint8_t> bytes;
  if (path.empty() || !ReadFileWhole(path, kMaxDrawPipelineListBytes, bytes)) return std::nullopt;
  std::optional<DrawPipelineList> list = DecodeDrawPipelineList(bytes);
  if (list) {
    std::error_code ec;
    std::filesystem::last_write_time(path, std::filesystem::file_time_type::clock::now(), ec);
  }
  return list;
}

bool SaveDrawPipelineList(const std::string& path, const DrawPipelineList& list) {
  if (path.empty()) return false;
  const std::vector<uint8_t> bytes = EncodeDrawPipelineList(list);
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return false;
  if (!WriteFileAtomically(path, bytes.data(), bytes.size())) return false;
  PruneDrawPipelineLists(folder.string(), kMaxDrawPipelineListFiles);
  return true;
}

void PruneDrawPipelineLists(const std::string& folder, size_t keep) {
  std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> lists;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("vk-draws-", 0) != 0 || it->path().extension() != ".bin") continue;
    std::error_code time_ec;
    const auto time = std::filesystem::last_write_time(it->path(), time_ec);
    if (!time_ec) lists.emplace_back(time, it->path());
  }
  if (lists.size() <= keep) return;
  // Newest first; what follows the first `keep` goes.
  std::sort(lists.begin(), lists.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = keep; i < lists.size(); ++i) {
    std::error_code remove_ec;
    std::filesystem::remove(lists[i].second, remove_ec);
  }
}

}  // namespace xnt::vk
