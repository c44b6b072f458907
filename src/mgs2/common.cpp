#include <algorithm>

#include "boneyard/mgs2_layout.h"

namespace boneyard::mgs2 {

std::string_view layout_name(Layout layout) { return layout == Layout::ps2 ? "ps2" : "mc"; }

std::optional<Layout> parse_layout(std::string_view name) {
  if (name == "ps2") return Layout::ps2;
  if (name == "mc") return Layout::mc;
  return std::nullopt;
}

std::vector<Gap> uncovered_gaps(Bytes file, std::vector<Interval> covered) {
  const auto order = [](const Interval& a, const Interval& b) { return a.begin < b.begin; };
  if (!std::is_sorted(covered.begin(), covered.end(), order)) std::sort(covered.begin(), covered.end(), order);
  std::vector<Gap> gaps;
  std::uint64_t pos = 0;
  for (const auto& iv : covered) {
    if (iv.begin > pos) gaps.push_back(Gap{pos, file.subspan(pos, iv.begin - pos)});
    pos = std::max(pos, iv.end);
  }
  if (pos < file.size()) gaps.push_back(Gap{pos, file.subspan(pos)});
  return gaps;
}

}  // namespace boneyard::mgs2
