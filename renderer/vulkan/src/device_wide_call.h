// Driver calls that act on a whole device rather than on one queue's work, one at a time in the
// process: vkCreateDevice, the teardown that ends in vkDestroyDevice, and a sparse binding with its
// wait. Several sessions run on their own threads in one process (compare --jobs), each with its
// own device; on NVIDIA's driver (580.159.04, H200) one thread destroying its device while another
// bound sparse memory on its own deadlocked inside the driver (both threads blocked on driver
// locks while a driver worker thread spun), about one compare run in ten. These calls come once
// per session and once per fresh chunk of guest memory, so serialising them costs nothing
// measurable.
#pragma once

#include <mutex>

namespace xnt::vk {

std::mutex& DeviceWideCallMutex();

}  // namespace xnt::vk
