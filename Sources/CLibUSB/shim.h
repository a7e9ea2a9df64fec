#ifndef MEDIASHELL_CLIBUSB_H
#define MEDIASHELL_CLIBUSB_H
#include <libusb-1.0/libusb.h>

/// libusb_set_option is variadic; Swift cannot call it. One-argument-less wrapper for LIBUSB_OPTION_LOG_LEVEL.
static inline int msh_libusb_set_log_level(libusb_context *ctx, int level) {
    return libusb_set_option(ctx, LIBUSB_OPTION_LOG_LEVEL, level);
}

/// The interfaces of a configuration descriptor (its `interface` member, an awkward name from Swift).
static inline const struct libusb_interface *msh_libusb_config_interfaces(const struct libusb_config_descriptor *config) {
    return config->interface;
}
#endif
