// libFuzzer target for the saved-model reader (issue 45, item 9): the input is the bytes of a .npz
// file, read by decodeModel (orbit/models/Npz.cpp's zip and .npy reader, then SavedModel.cpp's
// fromArchive). Property (FuzzChecks.hpp checkModel): a model that loads is consistent and survives
// encodeModel -> decodeModel unchanged; anything else is refused with a LoadError whose message is
// safe text. Seeds: a small model of each learner kind (make_seeds.cpp writes them).
#include "FuzzChecks.hpp"

#include <cstdlib>
#include <iostream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    try {
        (void)orbitfuzz::checkModel(std::string(reinterpret_cast<const char*>(data), size));
    } catch (const orbitfuzz::Finding& f) {
        std::cerr << "model: " << f.what() << "\n";
        std::abort();
    }
    return 0;
}
