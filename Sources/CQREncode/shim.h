// libqrencode for Swift: the QR codes the camera's screen shows a phone (its network, its page).
#pragma once
#include <qrencode.h>
