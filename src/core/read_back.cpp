#include "boneyard/core/read_back.h"

#include <map>
#include <string>

namespace boneyard {

Status first_new_error(const Diagnostics& found, const Diagnostics* inherited, std::string_view what) {
  std::map<std::string, std::size_t> allowed;
  if (inherited != nullptr)
    for (const auto& f : inherited->findings())
      if (f.severity == Severity::error) ++allowed[f.message];
  for (const auto& f : found.findings()) {
    if (f.severity != Severity::error) continue;
    if (auto it = allowed.find(f.message); it != allowed.end() && it->second > 0) {
      --it->second;
      continue;
    }
    Finding e = f;
    e.path = std::string(what) + " " + e.path;
    return e;
  }
  return {};
}

}  // namespace boneyard
