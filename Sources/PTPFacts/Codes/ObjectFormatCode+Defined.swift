extension ObjectFormatCode {
    /// True for the codes PTP and MTP define (their ancillary 0x30xx and image 0x38xx ranges, and MTP's
    /// 0xB8xx-0xBBxx formats); false for a vendor's own code or garbage. 0x3000 (undefined) is defined:
    /// it is how many MTP devices say "a file".
    public var isDefinedByStandard: Bool {
        switch rawValue {
        case 0x3000...0x30FF, 0x3800...0x38FF, 0xB800...0xBBFF: true
        default: false
        }
    }
}
