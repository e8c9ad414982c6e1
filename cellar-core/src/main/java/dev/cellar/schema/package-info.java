/**
 * The settings a table's schema and its mutations choose from, under HBase's names: a family's
 * {@link dev.cellar.schema.Compression}, {@link dev.cellar.schema.DataBlockEncoding} and {@link
 * dev.cellar.schema.BloomType}, and a mutation's {@link dev.cellar.schema.Durability}. The public
 * API names them and the engine works with the same constants; their order and ids are part of
 * HBase's file and wire formats. Depends on nothing but {@code java.base}.
 */
package dev.cellar.schema;
