// Which S.T.A.L.K.E.R. game a written file is for. The games read the same containers but accept
// different variants: SoC loads only the "magic" 1-2 link vertex ids, refs in 0x13 and params
// version 3; Clear Sky and Call of Pripyat also load numeric 1-4 link ids, refs in 0x18 and
// params version 4 (../shared/docs/ogf-write-notes.md sections 2 and 5; docs/ogf-write.md).
#pragma once

#include <optional>
#include <string_view>

namespace boneyard::xray {

// `keep`: what the file (or template) already is.
enum class Game { keep, soc, cs, cop };

// "soc", "cs", "cop" (any case) or "" (keep); nullopt for anything else.
std::optional<Game> parse_game(std::string_view name);
std::string_view game_name(Game game);  // "soc", "cs", "cop", "keep"

}  // namespace boneyard::xray
