package org.llmplatform.automation.security;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** A CIDR block, IPv4 or IPv6. */
public record AddressRange(byte[] network, int prefixLength, String text) {

    public static AddressRange parse(String cidr) {
        String[] parts = cidr.strip().split("/", 2);
        byte[] network = literal(parts[0]);
        int bits = network.length * 8;
        int prefix = parts.length == 2 ? Integer.parseInt(parts[1]) : bits;
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("Bad prefix length in " + cidr);
        }
        return new AddressRange(network, prefix, cidr.strip());
    }

    public boolean contains(InetAddress address) {
        byte[] candidate = address.getAddress();
        if (candidate.length != network.length) {
            return false;
        }
        int full = prefixLength / 8;
        for (int i = 0; i < full; i++) {
            if (candidate[i] != network[i]) {
                return false;
            }
        }
        int rest = prefixLength % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (candidate[full] & mask) == (network[full] & mask);
    }

    /** Numeric address literals only: {@link InetAddress#getByName} never resolves a name here. */
    private static byte[] literal(String address) {
        if (!address.contains(":") && !address.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            throw new IllegalArgumentException("Not an address literal: " + address);
        }
        try {
            byte[] bytes = InetAddress.getByName(address).getAddress();
            if (address.contains(":") && bytes.length == 4) {
                // ::ffff:a.b.c.d comes back as IPv4; keep ranges written in IPv6 as 16 bytes.
                byte[] mapped = new byte[16];
                mapped[10] = (byte) 0xFF;
                mapped[11] = (byte) 0xFF;
                System.arraycopy(bytes, 0, mapped, 12, 4);
                return mapped;
            }
            return bytes;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("Not an address literal: " + address);
        }
    }
}
