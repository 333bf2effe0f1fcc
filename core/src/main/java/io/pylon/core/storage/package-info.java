/**
 * What a pod writes into its data directory: one byte budget per pod ({@link DataBudget}) with per-kind caps on count
 * and bytes, which every writer reserves from before it writes, and owner-only files and folders
 * ({@link PrivateFiles}). Depends on {@code config} only.
 */
package io.pylon.core.storage;
