// n_mats in the spec's reading (matrices a packet uses) or SeaLouse's (influences per vertex);
// docs/mgs2.md "n_mats". The V2 weight record is 4 weights then 4 palette bytes.
#include <algorithm>

#include "boneyard/mgs2/evm/evm.h"

namespace boneyard::mgs2 {

std::optional<NMatsReading> parse_n_mats_reading(std::string_view name) {
  if (name == "spec") return NMatsReading::spec;
  if (name == "sealouse") return NMatsReading::sealouse;
  return std::nullopt;
}

std::uint32_t n_mats_for(const EvmFile& model, const EvmPacket& packet, NMatsReading reading) {
  std::uint32_t n = 0;
  if (reading == NMatsReading::spec) {
    for (std::uint32_t slot = 0; slot < packet.mat_id.size(); ++slot)
      if (packet.mat_id[slot] != 0xFF) n = slot + 1;
    return n;
  }
  const std::size_t vertices = std::min<std::size_t>(packet.vertex_count(), packet.weights.data.size() / 8);
  const std::size_t slots = model.weights_v2() ? 4 : 8;
  for (std::size_t v = 0; v < vertices && n < slots; ++v)
    for (std::size_t k = n; k < slots; ++k)
      if (packet.weights.data[v * 8 + k] != 0) n = static_cast<std::uint32_t>(k + 1);
  return n;
}

Result<std::size_t> set_n_mats(EvmFile& model, NMatsReading reading) {
  if (reading == NMatsReading::sealouse && !model.weights_v2())
    return Finding{Severity::error, 0, "type", "--n-mats sealouse writes influences per vertex, which only V2 weights have",
                   "type with 0x01000000 (V2)", "V1 weights (8 per vertex)"};
  std::size_t changed = 0;
  for (auto& p : model.packets) {
    if (!p.weights.present()) continue;
    const std::uint32_t n = n_mats_for(model, p, reading);
    if (n != p.n_mats) p.n_mats = n, ++changed;
  }
  return changed;
}

}  // namespace boneyard::mgs2
