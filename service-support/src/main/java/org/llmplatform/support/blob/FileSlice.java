package org.llmplatform.support.blob;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A range of a file as a stream of its own: one multipart part, reopened for each attempt to send it. */
final class FileSlice extends InputStream {

    private final FileChannel channel;
    private long position;
    private final long end;

    FileSlice(Path file, long offset, long length) throws IOException {
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        this.position = offset;
        this.end = offset + length;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (position >= end) {
            return -1;
        }
        int wanted = (int) Math.min(length, end - position);
        int read = channel.read(ByteBuffer.wrap(buffer, offset, wanted), position);
        if (read > 0) {
            position += read;
        }
        return read;
    }

    @Override
    public int available() {
        return (int) Math.min(Integer.MAX_VALUE, end - position);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
