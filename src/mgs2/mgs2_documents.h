// MGS2 formats as Documents for the format table (src/document.cpp).
#pragma once

#include <memory>
#include <string_view>

#include "boneyard/document.h"

namespace boneyard::mgs2 {

int sniff_kms(Bytes bytes, std::string_view extension);
Result<std::unique_ptr<Document>> open_kms_document(std::shared_ptr<const FileData> file, const OpenOptions& options);
int sniff_evm(Bytes bytes, std::string_view extension);
Result<std::unique_ptr<Document>> open_evm_document(std::shared_ptr<const FileData> file, const OpenOptions& options);

}  // namespace boneyard::mgs2
