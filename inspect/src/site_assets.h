// The inspector page's static files (inspect/site), embedded at build time by embed_assets.cmake.
#pragma once

#include <string_view>
#include <vector>

namespace xnt::inspect {

struct SiteAsset {
  std::string_view name;   // "index.html", "inspector.js", "inspector.css"
  std::string_view bytes;
};
const std::vector<SiteAsset>& SiteAssets();

}  // namespace xnt::inspect
