package dev.cellar.interop;

import dev.cellar.hfile.BlockType;

/**
 * One block of an HFile as a reader saw it, for comparing HBase's reader with Cellar's.
 *
 * @param offset where the block starts in the file
 * @param type the block type
 * @param onDiskSizeWithHeader the block's bytes on disk: header, payload and checksums
 * @param uncompressedSizeWithoutHeader the payload's size once decompressed
 */
public record BlockInfo(
    long offset, BlockType type, int onDiskSizeWithHeader, int uncompressedSizeWithoutHeader) {}
