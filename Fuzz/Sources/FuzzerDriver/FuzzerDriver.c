// Only the header matters: it declares libFuzzer's LLVMFuzzerRunDriver for Swift.
#include "FuzzerDriver.h"
