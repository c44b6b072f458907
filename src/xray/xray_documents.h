// X-Ray formats as Documents for the format table (src/document.cpp).
#pragma once

#include <memory>
#include <string_view>

#include "boneyard/document.h"

namespace boneyard::xray {

int sniff_omf(Bytes bytes, std::string_view extension);
Result<std::unique_ptr<Document>> open_omf_document(std::shared_ptr<const FileData> file, const OpenOptions& options);
int sniff_ogf(Bytes bytes, std::string_view extension);
Result<std::unique_ptr<Document>> open_ogf_document(std::shared_ptr<const FileData> file, const OpenOptions& options);

}  // namespace boneyard::xray
