#ifndef MEDIASHELL_CLIBUSB_H
#define MEDIASHELL_CLIBUSB_H
#include <libusb-1.0/libusb.h>
#include <stdlib.h>
#include <time.h>

/// libusb_set_option is variadic; Swift cannot call it. One-argument-less wrapper for LIBUSB_OPTION_LOG_LEVEL.
static inline int msh_libusb_set_log_level(libusb_context *ctx, int level) {
    return libusb_set_option(ctx, LIBUSB_OPTION_LOG_LEVEL, level);
}

/// The interfaces of a configuration descriptor (its `interface` member, an awkward name from Swift).
static inline const struct libusb_interface *msh_libusb_config_interfaces(const struct libusb_config_descriptor *config) {
    return config->interface;
}

/// Whether a device of this bcdUSB has a BOS descriptor to ask for: only from USB 2.01 on (the kernel asks
/// only then too; a device of an older version may never answer the request, and one camera's open failed
/// on it).
static inline int msh_usb_has_bos(unsigned short bcdUSB) { return bcdUSB >= 0x0201; }

/// Whether a device of this bcdUSB may have a device qualifier descriptor (USB 2.0 on: a high-speed
/// capable device running at full speed).
static inline int msh_usb_has_qualifier(unsigned short bcdUSB) { return bcdUSB >= 0x0200; }

/// The best speed the device says it can do, beyond the one it runs at (an `enum libusb_speed`; 0 when it
/// says nothing more): SuperSpeed or SuperSpeed+ from its BOS descriptor's capabilities (a USB 3 camera on
/// a USB 2 port still lists them), else high speed when a device running at full speed answers the
/// device qualifier request (only a high-speed capable device has one). Only what the device's bcdUSB says
/// it has is asked for; a request it does not answer only means nothing more is known.
static inline int msh_libusb_capable_speed(libusb_device_handle *handle, int running) {
    int best = 0;
    struct libusb_device_descriptor device;
    if (libusb_get_device_descriptor(libusb_get_device(handle), &device) != 0) return 0;
    struct libusb_bos_descriptor *bos = NULL;
    if (msh_usb_has_bos(device.bcdUSB) && libusb_get_bos_descriptor(handle, &bos) == 0 && bos != NULL) {
        for (int i = 0; i < bos->bNumDeviceCaps; i++) {
            const struct libusb_bos_dev_capability_descriptor *cap = bos->dev_capability[i];
            if (cap == NULL) continue;
            if (cap->bDevCapabilityType == LIBUSB_BT_SS_USB_DEVICE_CAPABILITY && cap->bLength >= 10) {
                /* wSpeedSupported, bit 3: 5 Gb/s */
                int speeds = cap->dev_capability_data[1] | (cap->dev_capability_data[2] << 8);
                if ((speeds & 0x8) && best < LIBUSB_SPEED_SUPER) best = LIBUSB_SPEED_SUPER;
            } else if (cap->bDevCapabilityType == 0x0A /* SuperSpeedPlus */) {
                best = LIBUSB_SPEED_SUPER_PLUS;
            }
        }
        libusb_free_bos_descriptor(bos);
    }
    if (best == 0 && running == LIBUSB_SPEED_FULL && msh_usb_has_qualifier(device.bcdUSB)) {
        unsigned char qualifier[10];
        if (libusb_get_descriptor(handle, 0x06 /* DEVICE_QUALIFIER */, 0, qualifier, sizeof qualifier) == 10) best = LIBUSB_SPEED_HIGH;
    }
    return best;
}

/// Sets a flag that `msh_libusb_transfer` polls, from any thread.
static inline void msh_flag_raise(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }

/// Whether `msh_flag_raise` was called on `flag`.
static inline int msh_flag_is_raised(const int *flag) { return __atomic_load_n(flag, __ATOMIC_ACQUIRE); }

/// The completion callback of `msh_libusb_transfer`: marks its transfer finished.
static inline void LIBUSB_CALL msh_libusb_transfer_finished(struct libusb_transfer *transfer) {
    *(int *)transfer->user_data = 1;
}

/// The libusb error for how a finished transfer ended (0 when it completed). A cancelled one ended by
/// `timed_out` (our own deadline) is a timeout; by `*cancel`, an interruption; by anything else, an I/O error.
static inline int msh_transfer_result(const struct libusb_transfer *transfer, int timed_out, const int *cancel) {
    switch (transfer->status) {
    case LIBUSB_TRANSFER_COMPLETED: return 0;
    case LIBUSB_TRANSFER_TIMED_OUT: return LIBUSB_ERROR_TIMEOUT;
    case LIBUSB_TRANSFER_STALL: return LIBUSB_ERROR_PIPE;
    case LIBUSB_TRANSFER_NO_DEVICE: return LIBUSB_ERROR_NO_DEVICE;
    case LIBUSB_TRANSFER_OVERFLOW: return LIBUSB_ERROR_OVERFLOW;
    case LIBUSB_TRANSFER_CANCELLED:
        return timed_out ? LIBUSB_ERROR_TIMEOUT : msh_flag_is_raised(cancel) ? LIBUSB_ERROR_INTERRUPTED : LIBUSB_ERROR_IO;
    default: return LIBUSB_ERROR_IO;
    }
}

/// One bulk (`type` LIBUSB_TRANSFER_TYPE_BULK) or interrupt transfer, as libusb_bulk_transfer does it, but
/// through the asynchronous API so that another thread can end it: the events are handled in slices of
/// 100 ms, and once `*cancel` is raised the transfer is cancelled and LIBUSB_ERROR_INTERRUPTED returned
/// (with the bytes that had arrived in `*transferred`). Without that, a synchronous transfer can only
/// end by its timeout, and Ctrl-C during a long wait on the device would wait it out.
static inline int msh_libusb_transfer(
    libusb_context *context, libusb_device_handle *handle, unsigned char endpoint, unsigned char type,
    unsigned char *data, int length, int *transferred, unsigned int timeout, const int *cancel
) {
    *transferred = 0;
    if (msh_flag_is_raised(cancel)) return LIBUSB_ERROR_INTERRUPTED;
    struct libusb_transfer *transfer = libusb_alloc_transfer(0);
    if (!transfer) return LIBUSB_ERROR_NO_MEM;
    int finished = 0;
    if (type == LIBUSB_TRANSFER_TYPE_INTERRUPT) {
        libusb_fill_interrupt_transfer(transfer, handle, endpoint, data, length, msh_libusb_transfer_finished, &finished, timeout);
    } else {
        libusb_fill_bulk_transfer(transfer, handle, endpoint, data, length, msh_libusb_transfer_finished, &finished, timeout);
    }
    int status = libusb_submit_transfer(transfer);
    if (status < 0) {
        libusb_free_transfer(transfer);
        return status;
    }
    int cancelled = 0;
    while (!finished) {
        if (!cancelled && msh_flag_is_raised(cancel)) {
            libusb_cancel_transfer(transfer);
            cancelled = 1;
        }
        struct timeval slice = {0, 100000};
        int handled = libusb_handle_events_timeout_completed(context, &slice, &finished);
        if (handled < 0 && handled != LIBUSB_ERROR_INTERRUPTED && !cancelled) {
            // The event loop itself failed: cancel, and wait for the cancellation to arrive.
            libusb_cancel_transfer(transfer);
            cancelled = 1;
        }
    }
    *transferred = transfer->actual_length;
    int result = msh_transfer_result(transfer, 0, cancel);
    libusb_free_transfer(transfer);
    return result;
}
/// A bulk-in transfer submitted by `msh_libusb_submit_bulk_in` and not yet reaped: several can be queued
/// on one endpoint at once, so the controller moves on to the next without waiting for the host.
struct msh_queued_transfer {
    struct libusb_transfer *transfer;
    int finished;
};

/// The completion callback of a queued transfer.
static inline void LIBUSB_CALL msh_queued_transfer_finished(struct libusb_transfer *transfer) {
    __atomic_store_n(&((struct msh_queued_transfer *)transfer->user_data)->finished, 1, __ATOMIC_RELEASE);
}

/// Submits one bulk-in transfer of `length` bytes into `data` (which must stay valid until it is reaped),
/// without a libusb timeout: `msh_libusb_reap` times the wait from when the host starts waiting on it, so
/// a transfer queued behind others is not charged for their time. NULL, with `*status` set, on failure.
static inline struct msh_queued_transfer *msh_libusb_submit_bulk_in(
    libusb_device_handle *handle, unsigned char endpoint, unsigned char *data, int length, int *status
) {
    struct msh_queued_transfer *queued = calloc(1, sizeof *queued);
    struct libusb_transfer *transfer = queued ? libusb_alloc_transfer(0) : NULL;
    if (!transfer) {
        free(queued);
        *status = LIBUSB_ERROR_NO_MEM;
        return NULL;
    }
    queued->transfer = transfer;
    libusb_fill_bulk_transfer(transfer, handle, endpoint, data, length, msh_queued_transfer_finished, queued, 0);
    *status = libusb_submit_transfer(transfer);
    if (*status < 0) {
        libusb_free_transfer(transfer);
        free(queued);
        return NULL;
    }
    return queued;
}

/// Asks libusb to end a queued transfer; it still has to be reaped (libusb frees nothing before the callback).
static inline void msh_libusb_cancel_queued(struct msh_queued_transfer *queued) {
    if (!__atomic_load_n(&queued->finished, __ATOMIC_ACQUIRE)) libusb_cancel_transfer(queued->transfer);
}

/// Waits for a queued transfer to finish and frees it. Handles events in slices of 100 ms; once `*cancel`
/// is raised, or `timeout` milliseconds have passed, the transfer is cancelled and waited for (never freed
/// while libusb still owns it). Returns 0 or a libusb error (LIBUSB_ERROR_TIMEOUT after the timeout,
/// LIBUSB_ERROR_INTERRUPTED after `*cancel`, LIBUSB_ERROR_IO after `msh_libusb_cancel_queued`), with the
/// bytes that arrived in `*transferred` either way.
static inline int msh_libusb_reap(
    libusb_context *context, struct msh_queued_transfer *queued, unsigned int timeout, const int *cancel,
    int *transferred
) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long deadline = (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000 + timeout;
    int cancelled = 0, timed_out = 0;
    while (!__atomic_load_n(&queued->finished, __ATOMIC_ACQUIRE)) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long left = deadline - ((long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
        if (!cancelled && msh_flag_is_raised(cancel)) {
            libusb_cancel_transfer(queued->transfer);
            cancelled = 1;
        }
        if (!cancelled && left <= 0) {
            libusb_cancel_transfer(queued->transfer);
            cancelled = timed_out = 1;
        }
        if (left > 100 || left <= 0) left = 100;
        struct timeval slice = {0, (long)left * 1000};
        int handled = libusb_handle_events_timeout_completed(context, &slice, &queued->finished);
        if (handled < 0 && handled != LIBUSB_ERROR_INTERRUPTED && !cancelled) {
            libusb_cancel_transfer(queued->transfer);
            cancelled = 1;
        }
    }
    struct libusb_transfer *transfer = queued->transfer;
    *transferred = transfer->actual_length;
    int result = msh_transfer_result(transfer, timed_out, cancel);
    libusb_free_transfer(transfer);
    free(queued);
    return result;
}
#endif
