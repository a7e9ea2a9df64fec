import CLibUSB
import Testing

/// What an open asks a device for follows the USB version it says it speaks (issue 45): a BOS descriptor
/// only from 2.01 (a camera persona of bcdUSB 2.00 never answered it, and the open failed), a device
/// qualifier only from 2.00.
@Suite struct EnumerationRequestTests {
    @Test func theBOSDescriptorIsAskedOnlyOfUSB201AndLater() {
        #expect(msh_usb_has_bos(0x0110) == 0)
        #expect(msh_usb_has_bos(0x0200) == 0)
        #expect(msh_usb_has_bos(0x0201) == 1)
        #expect(msh_usb_has_bos(0x0210) == 1)
        #expect(msh_usb_has_bos(0x0320) == 1)
    }

    @Test func theDeviceQualifierIsAskedOnlyOfUSB2() {
        #expect(msh_usb_has_qualifier(0x0100) == 0)
        #expect(msh_usb_has_qualifier(0x0110) == 0)
        #expect(msh_usb_has_qualifier(0x0200) == 1)
    }
}
