#include "boneyard/xray/xray_game.h"

#include "boneyard/core/text.h"

namespace boneyard::xray {

std::optional<Game> parse_game(std::string_view name) {
  const std::string g = lower_ascii(name);
  if (g.empty()) return Game::keep;
  if (g == "soc") return Game::soc;
  if (g == "cs") return Game::cs;
  if (g == "cop") return Game::cop;
  return std::nullopt;
}

std::string_view game_name(Game game) {
  switch (game) {
    case Game::soc: return "soc";
    case Game::cs: return "cs";
    case Game::cop: return "cop";
    case Game::keep: break;
  }
  return "keep";
}

}  // namespace boneyard::xray
