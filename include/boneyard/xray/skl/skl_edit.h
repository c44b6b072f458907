// Editing .skl/.skls files like .omf files (xray/omf/omf_edit.h, whose vocabulary this shares:
// EditReport, ParamEdit, MarkEdit, the flag words): every operation changes only what it is asked
// to change; motions the user does not touch keep their bytes (their key records stay views into
// the original file), and `anm_edit.h` does the same for an .anm's one motion.
#pragma once

#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/xray/omf/omf_edit.h"
#include "boneyard/xray/skl/skl.h"

namespace boneyard::xray {

// Motions whose name matches any pattern (UTF-8; `*` and `?`; case-insensitive as the SDK's
// lookup). A pattern that matches nothing is an error.
Result<std::vector<std::size_t>> select_skl_motions(const SklFile& file, const std::vector<std::string>& patterns);

// .skls only (a .skl holds one motion).
Result<EditReport> delete_skl_motions(SklFile& file, const std::vector<std::string>& patterns);
// The chosen motions as a new file in `container`: a .skl takes exactly one.
Result<SklFile> extract_skl_motions(const SklFile& file, const std::vector<std::string>& patterns,
                                    SklContainer container, EditReport& report);
// A name is cp1251, not empty, without NUL, CR or LF, at most 127 bytes (what the engine keeps
// when the motion is compiled); another motion of that name (ignoring case) is an error.
Result<EditReport> rename_skl_motion(SklFile& file, const std::string& old_name, const std::string& new_name);

// ParamEdit as for .omf, except: `part` is a part index or "all" (a .skls does not name its
// object's bone parts), `bone` a bone of the motion by name (an FX motion starts at it: its index
// in the motion, which the SDK sorts by skeleton). Marks need version 7: a v6 motion that gets
// marks becomes v7 (reported); v4 and v5 motions cannot hold marks, and v4 holds only the fx and
// stop_at_end flags (errors, nothing changed).
Result<EditReport> set_skl_params(SklFile& file, const std::vector<std::string>& patterns, const ParamEdit& edit);

// Joins the motions of .skl/.skls files into a file in `container` (a .skl takes exactly one). A
// motion name found twice is an error unless `rename_clashes`, which renames the later one to
// "name_2", "name_3", ...
Result<SklFile> merge_skls(std::vector<SklFile> files, bool rename_clashes, SklContainer container,
                           EditReport& report);

}  // namespace boneyard::xray
