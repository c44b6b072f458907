// One convert request: the steps of `boneyard convert IN -o OUT [options]`, in one place for every
// caller (the CLI, the Python module, the batch, and through the CLI the Blender add-on). Callers
// fill a ConvertOptions (registry/document.h) and show what comes back; the checks, their order
// and their messages are the same for all of them.
#pragma once

#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/registry/document.h"

namespace boneyard {

// What a request reports besides its Status, for the caller to show.
struct ConvertOutcome {
  // The input's validation errors that stop its conversion (Document::conversion_blockers). With
  // settings.force the input was converted anyway; without, `blocked` is set and the request's
  // error is the first of them.
  std::vector<Finding> blockers;
  bool blocked = false;
  std::vector<Finding> warnings;  // the conversion's warnings (info left out), also when it failed
};

// The refusals that need no input: an output that names the input file, an option that names a
// file to read (--skeleton, --template) that is not a regular file. convert_request makes them
// too; a caller that reads the input itself makes them first, so that nothing is read for a
// request that cannot be done.
Status check_request_files(const ConvertOptions& request);

// Converts `input` as `request` asks, step by step, stopping at the first that fails:
//  1. the target: the output's extension is one the input converts to;
//  2. check_request_files;
//  3. the options: none that the conversion would ignore (the option table, registry/
//     convert_options.h), then the document's own checks (a --template of another format, ...);
//  4. the input's validation errors (outcome.blockers) stop it unless settings.force;
//  5. convert_to_files: written whole or not at all;
//  6. the warnings into outcome.warnings.
// The error says why it stopped: a usage or I/O problem (exit 2), or a problem in a file (exit 1).
Status convert_request(const Document& input, const ConvertOptions& request, ConvertOutcome& outcome);

// The options the input of a request is opened with (its --input-layout and
// --allow-outside-uris; `names` is the --names table the caller loaded).
OpenOptions open_options_for(const ConvertSettings& settings, const TextureNames* names);

// The names file of --names (one name per line) loaded into `names`; an I/O error naming the file
// when it cannot be read.
Status load_texture_names(TextureNames& names, const std::filesystem::path& path);

}  // namespace boneyard
