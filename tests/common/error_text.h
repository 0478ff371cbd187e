// The message a rejected call gives, for tests that pin what a rejection says rather than only
// that it happened.
#pragma once

#include <string>
#include <utility>

#include "xnt/base/error.h"

namespace xnt::test {

// What `call` throws as xnt::Error, or `accepted` where it returns.
template <class Call>
std::string ErrorText(Call&& call, const std::string& accepted) {
  try {
    std::forward<Call>(call)();
  } catch (const Error& e) {
    return e.what();
  }
  return accepted;
}

}  // namespace xnt::test
