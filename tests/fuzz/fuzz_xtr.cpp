// libFuzzer target for the Xenia .xtr parser and importer (capture/xtr_import.h): any input must
// either import or fail with xnt::Error — never crash, hang, or allocate more than the input can
// justify. What imports must also export, and the export must import again.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "xnt/base/error.h"
#include "xnt/capture/xtr_export.h"
#include "xnt/capture/xtr_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<xnt::format::Record> records;
  try {
    xnt::capture::ImportXtr(std::span<const uint8_t>(data, size),
                            [&](xnt::format::Record&& r) { records.push_back(std::move(r)); });
  } catch (const xnt::Error&) {
    return 0;
  }
  std::vector<uint8_t> xtr;
  xnt::capture::XtrExporter exporter(xtr, 0);
  for (const auto& r : records) exporter.Add(r);
  size_t again = 0;
  // Our own output must always import: an exception here is a bug, so let it escape.
  xnt::capture::ImportXtr(xtr, [&](xnt::format::Record&&) { ++again; });
  if (records.empty() != (again == 0)) __builtin_trap();
  return 0;
}
