/** SQL scripts shipped as resources ({@link dev.timelake.script.SqlScript}). */
package dev.timelake.script;
