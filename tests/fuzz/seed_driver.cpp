// Replays committed fuzz seeds through a fuzz target's LLVMFuzzerTestOneInput with the normal
// compiler (no libFuzzer), so ctest runs every seed of every target in every build, fuzzing or
// not (XNT_SKIP_FUZZ=1 included). Usage: seeds_<target> FILE_OR_DIR...; a directory contributes
// every regular file in it, in name order. Exit 0 when every file ran; a crash, a sanitizer
// report or a trap ends the process as it would end the fuzzer. An empty or missing corpus is a
// failure (a seed folder that moved would otherwise pass silently).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const fs::path p(argv[i]);
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<fs::path> in_dir;
      for (const auto& e : fs::directory_iterator(p)) {
        if (e.is_regular_file()) in_dir.push_back(e.path());
      }
      std::sort(in_dir.begin(), in_dir.end());
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else if (fs::is_regular_file(p, ec)) {
      files.push_back(p);
    } else {
      std::fprintf(stderr, "seed driver: %s is neither a file nor a folder\n", argv[i]);
      return 1;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "seed driver: no seed files given\n");
    return 1;
  }
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "seed driver: cannot read %s\n", f.c_str());
      return 1;
    }
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in),
                                  std::istreambuf_iterator<char>()};
    std::printf("seed %s (%zu bytes)\n", f.c_str(), bytes.size());
    std::fflush(stdout);  // the name is out before a crash
    // A copy of exactly the file's size, so ASan sees reads past the end as the fuzzer would.
    std::vector<uint8_t> data(bytes.begin(), bytes.end());
    LLVMFuzzerTestOneInput(data.empty() ? nullptr : data.data(), data.size());
  }
  std::printf("%zu seed(s) ran\n", files.size());
  return 0;
}
