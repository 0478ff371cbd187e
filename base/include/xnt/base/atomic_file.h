// Replacing a file so that a reader never sees half of it: the bytes go to a temporary file in
// the same folder (rename is atomic only within one file system), are flushed to the disk, and the
// temporary is renamed over the target. Concurrent writers of one path (several replays sharing a
// cache folder) each use a name no other process or thread uses, and the last rename wins with a
// complete file. For caches, whose callers carry on without the file: failure is a `false`.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace xnt {

inline bool WriteFileAtomically(const std::string& path, const void* data, size_t size) {
  static std::atomic<uint64_t> counter{0};
  const std::string temp = path + ".tmp." + std::to_string(::getpid()) + "." +
                           std::to_string(counter.fetch_add(1));
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const auto* bytes = static_cast<const uint8_t*>(data);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, bytes + done, size - done);
    if (n <= 0) break;
    done += size_t(n);
  }
  // Without the fsync a crash after the rename can leave the new name pointing at an empty file.
  const bool synced = done == size && ::fsync(fd) == 0;
  const bool written = ::close(fd) == 0 && synced;
  if (!written || std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    return false;
  }
  return true;
}

// The reading side: the whole of a file of at most `max_size` bytes into `out`, through one open
// descriptor (a file replaced meanwhile is read whole, old or new); false when it is missing,
// larger, or comes short.
inline bool ReadFileWhole(const std::string& path, uint64_t max_size, std::vector<uint8_t>& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  bool ok = ::fstat(fd, &st) == 0 && st.st_size >= 0 && uint64_t(st.st_size) <= max_size;
  if (ok) {
    out.resize(size_t(st.st_size));
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::read(fd, out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += size_t(n);
    }
    ok = done == out.size();
  }
  ::close(fd);
  return ok;
}

}  // namespace xnt
