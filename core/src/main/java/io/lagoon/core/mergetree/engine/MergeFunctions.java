package io.lagoon.core.mergetree.engine;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the {@link MergeFunction} a primary-key table's options ask for, after checking those
 * options against the schema. Every problem is an {@link IllegalArgumentException} naming the
 * option and the column. See the engine classes for the semantics: {@code deduplicate}
 * ({@link DeduplicateMergeFunction}), {@code partial-update} ({@link PartialUpdateMergeFunction}),
 * {@code aggregation} ({@link AggregateMergeFunction}) and {@code first-row}
 * ({@link FirstRowMergeFunction}). The order records must be added in comes from
 * {@link RecordOrder#create}.
 */
public final class MergeFunctions {
  /** Types Paimon allows as sequence-group sequence fields ("Partial Update" docs). */
  private static final Set<TypeRoot> SEQUENCE_GROUP_TYPES = EnumSet.of(TypeRoot.DECIMAL, TypeRoot.TINYINT,
      TypeRoot.SMALLINT, TypeRoot.INT, TypeRoot.BIGINT, TypeRoot.FLOAT, TypeRoot.DOUBLE, TypeRoot.DATE,
      TypeRoot.TIME, TypeRoot.TIMESTAMP, TypeRoot.TIMESTAMP_LTZ);

  private MergeFunctions() {}

  /**
   * Creates a fresh merge function (one per reader).
   *
   * @param tableOptions the table options
   * @param valueFields every column of the table, in value-row order
   * @param primaryKeys the primary-key column names
   * @throws IllegalArgumentException for options that are malformed or do not fit the schema
   */
  public static MergeFunction create(Map<String, String> tableOptions, List<DataField> valueFields,
                                     List<String> primaryKeys) {
    MergeOptions o = new MergeOptions(tableOptions);
    checkSchema(valueFields, primaryKeys);
    MergeEngine engine = o.engine();
    RecordOrder order = RecordOrder.create(tableOptions, valueFields); // validates sequence.field
    boolean ignoreDelete = o.ignoreDelete();
    switch (engine) {
      case DEDUPLICATE:
        return new DeduplicateMergeFunction(valueFields, ignoreDelete);
      case FIRST_ROW:
        if (order.hasSequenceFields()) {
          throw new IllegalArgumentException("Table option '" + MergeOptions.SEQUENCE_FIELD + "' cannot be used with "
              + "'" + MergeOptions.MERGE_ENGINE + "'='first-row': the first-row engine keeps the first record written");
        }
        return new FirstRowMergeFunction(valueFields, ignoreDelete);
      case PARTIAL_UPDATE:
        return partialUpdate(o, valueFields, primaryKeys, ignoreDelete);
      case AGGREGATION:
        return aggregation(o, valueFields, primaryKeys, order, ignoreDelete);
      default:
        throw new IllegalStateException(engine.toString());
    }
  }

  /** Checks the options without keeping the function; the same errors as {@link #create}. */
  public static void validate(Map<String, String> tableOptions, List<DataField> valueFields, List<String> primaryKeys) {
    create(tableOptions, valueFields, primaryKeys);
  }

  /** The order the records of one key must be added in; see {@link RecordOrder#create}. */
  public static RecordOrder recordOrder(Map<String, String> tableOptions, List<DataField> valueFields) {
    return RecordOrder.create(tableOptions, valueFields);
  }

  private static void checkSchema(List<DataField> valueFields, List<String> primaryKeys) {
    Set<String> names = new HashSet<>();
    for (DataField f : valueFields) {
      if (!names.add(f.name())) {
        throw new IllegalArgumentException("Duplicate column '" + f.name() + "' in the value fields");
      }
    }
    if (primaryKeys == null || primaryKeys.isEmpty()) {
      throw new IllegalArgumentException("Merge engines apply to primary-key tables; set table option 'primary-key'");
    }
    Set<String> seen = new HashSet<>();
    for (String k : primaryKeys) {
      if (!names.contains(k)) {
        throw new IllegalArgumentException("Primary key column '" + k + "' is not a column of the table; columns are "
            + RecordOrder.names(valueFields));
      }
      if (!seen.add(k)) {
        throw new IllegalArgumentException("Primary key column '" + k + "' is listed twice");
      }
    }
  }

  /** Every {@code fields.<f>.<suffix>} option must name an existing column. */
  private static void checkFieldOptionsExist(MergeOptions o, List<DataField> fields, String... suffixes) {
    for (String suffix : suffixes) {
      for (String f : o.fieldOptions(suffix).keySet()) {
        if (RecordOrder.indexOf(fields, f) < 0) {
          throw new IllegalArgumentException("Table option '" + MergeOptions.fieldKey(f, suffix) + "' names column '"
              + f + "', which the table does not have; columns are " + RecordOrder.names(fields));
        }
      }
    }
  }

  private static void checkNotBoth(boolean a, String aKey, boolean b, String bKey) {
    if (a && b) {
      throw new IllegalArgumentException("Table options '" + aKey + "' and '" + bKey + "' contradict each other: "
          + "the first drops -U/-D records, the second acts on them; set only one");
    }
  }

  // ---------------------------------------------------------------- aggregation

  private static MergeFunction aggregation(MergeOptions o, List<DataField> fields, List<String> primaryKeys,
                                           RecordOrder order, boolean ignoreDelete) {
    if (!o.fieldOptions(MergeOptions.SEQUENCE_GROUP_SUFFIX).isEmpty()) {
      String k = o.fieldOptions(MergeOptions.SEQUENCE_GROUP_SUFFIX).keySet().iterator().next();
      throw new IllegalArgumentException("Table option '" + MergeOptions.fieldKey(k, MergeOptions.SEQUENCE_GROUP_SUFFIX)
          + "': sequence groups belong to the partial-update merge engine, not aggregation");
    }
    checkFieldOptionsExist(o, fields, MergeOptions.AGGREGATE_FUNCTION_SUFFIX, MergeOptions.IGNORE_RETRACT_SUFFIX,
        MergeOptions.LIST_AGG_DELIMITER_SUFFIX, MergeOptions.DISTINCT_SUFFIX);
    boolean removeOnDelete = o.bool(MergeOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE, false);
    checkNotBoth(ignoreDelete, MergeOptions.IGNORE_DELETE, removeOnDelete,
        MergeOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE);
    Map<String, String> functions = o.fieldOptions(MergeOptions.AGGREGATE_FUNCTION_SUFFIX);
    String defaultFn = o.get(MergeOptions.DEFAULT_AGGREGATE_FUNCTION);
    if (defaultFn != null) {
      FieldAggregators.checkName(MergeOptions.DEFAULT_AGGREGATE_FUNCTION, defaultFn);
    }
    FieldAggregator[] aggs = new FieldAggregator[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      DataField f = fields.get(i);
      String key = MergeOptions.fieldKey(f.name(), MergeOptions.AGGREGATE_FUNCTION_SUFFIX);
      if (primaryKeys.contains(f.name())) {
        if (functions.containsKey(f.name())) {
          throw new IllegalArgumentException("Table option '" + key + "': column '" + f.name()
              + "' is part of the primary key, which keeps its value; remove the option");
        }
        continue;
      }
      if (functions.containsKey(f.name())) {
        aggs[i] = FieldAggregators.create(key, functions.get(f.name()), f, o);
      } else if (order.sequenceFields().contains(f.name())) {
        aggs[i] = FieldAggregators.create(key, FieldAggregators.LAST_VALUE, f, o);
      } else if (defaultFn != null) {
        aggs[i] = FieldAggregators.create(MergeOptions.DEFAULT_AGGREGATE_FUNCTION, defaultFn, f, o);
      } else {
        aggs[i] = FieldAggregators.create(key, FieldAggregators.LAST_NON_NULL_VALUE, f, o);
      }
    }
    return new AggregateMergeFunction(fields, aggs, ignoreDelete, removeOnDelete);
  }

  // ---------------------------------------------------------------- partial-update

  private static MergeFunction partialUpdate(MergeOptions o, List<DataField> fields, List<String> primaryKeys,
                                             boolean ignoreDelete) {
    checkFieldOptionsExist(o, fields, MergeOptions.AGGREGATE_FUNCTION_SUFFIX, MergeOptions.IGNORE_RETRACT_SUFFIX,
        MergeOptions.LIST_AGG_DELIMITER_SUFFIX, MergeOptions.DISTINCT_SUFFIX);
    boolean removeOnDelete = o.bool(MergeOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE, false);
    checkNotBoth(ignoreDelete, MergeOptions.IGNORE_DELETE, removeOnDelete,
        MergeOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE);

    // Sequence groups: "fields.<s1>[,<s2>...].sequence-group" = "<a>,<b>,...".
    Map<String, String> specs = o.fieldOptions(MergeOptions.SEQUENCE_GROUP_SUFFIX);
    Map<String, String> sequenceFieldOwner = new HashMap<>(); // sequence column -> option key
    Map<String, String> protectedBy = new LinkedHashMap<>();  // protected column -> option key
    List<List<String>> groupSequences = new ArrayList<>();
    List<List<String>> groupProtected = new ArrayList<>();
    List<String> groupKeys = new ArrayList<>();
    for (Map.Entry<String, String> e : specs.entrySet()) {
      String optionKey = MergeOptions.fieldKey(e.getKey(), MergeOptions.SEQUENCE_GROUP_SUFFIX);
      List<String> seqs = MergeOptions.splitList(optionKey, e.getKey());
      for (String s : seqs) {
        int pos = RecordOrder.indexOf(fields, s);
        if (pos < 0) {
          throw new IllegalArgumentException("Table option '" + optionKey + "' names sequence column '" + s
              + "', which the table does not have; columns are " + RecordOrder.names(fields));
        }
        PaimonType t = fields.get(pos).type();
        if (!SEQUENCE_GROUP_TYPES.contains(t.root())) {
          throw new IllegalArgumentException("Table option '" + optionKey + "': sequence column '" + s + "' has type "
              + t + "; a sequence-group field must be DECIMAL, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE, "
              + "DATE, TIME, TIMESTAMP or TIMESTAMP_LTZ");
        }
        if (primaryKeys.contains(s)) {
          throw new IllegalArgumentException("Table option '" + optionKey + "': sequence column '" + s
              + "' is part of the primary key");
        }
        String prev = sequenceFieldOwner.put(s, optionKey);
        if (prev != null) {
          throw new IllegalArgumentException("Column '" + s + "' is the sequence field of two sequence groups ('"
              + prev + "' and '" + optionKey + "')");
        }
      }
      List<String> prot = MergeOptions.splitList(optionKey, e.getValue());
      for (String p : prot) {
        if (RecordOrder.indexOf(fields, p) < 0) {
          throw new IllegalArgumentException("Table option '" + optionKey + "' names column '" + p
              + "', which the table does not have; columns are " + RecordOrder.names(fields));
        }
        if (primaryKeys.contains(p)) {
          throw new IllegalArgumentException("Table option '" + optionKey + "': column '" + p
              + "' is part of the primary key and cannot belong to a sequence group");
        }
        String prev = protectedBy.put(p, optionKey);
        if (prev != null) {
          throw new IllegalArgumentException("Column '" + p + "' belongs to two sequence groups ('" + prev + "' and '"
              + optionKey + "')");
        }
      }
      groupKeys.add(optionKey);
      groupSequences.add(seqs);
      groupProtected.add(prot);
    }
    for (Map.Entry<String, String> e : protectedBy.entrySet()) {
      if (sequenceFieldOwner.containsKey(e.getKey())) {
        throw new IllegalArgumentException("Table option '" + e.getValue() + "' lists column '" + e.getKey()
            + "', which is the sequence field of '" + sequenceFieldOwner.get(e.getKey())
            + "'; a sequence field already belongs to its own group");
      }
    }
    if (removeOnDelete && !specs.isEmpty()) {
      throw new IllegalArgumentException("Table option '" + MergeOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE
          + "' cannot be combined with sequence groups ('" + groupKeys.get(0) + "'): sequence groups retract their "
          + "own columns; use '" + MergeOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP + "' instead");
    }

    // Which groups remove the whole row on -D.
    Set<Integer> removingGroups = new HashSet<>();
    String removeSpec = o.get(MergeOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP);
    if (removeSpec != null && !removeSpec.trim().isEmpty()) {
      checkNotBoth(ignoreDelete, MergeOptions.IGNORE_DELETE, true,
          MergeOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP);
      for (String s : MergeOptions.splitList(MergeOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP, removeSpec)) {
        int g = -1;
        for (int i = 0; i < groupSequences.size(); i++) {
          if (groupSequences.get(i).contains(s)) {
            g = i;
          }
        }
        if (g < 0) {
          throw new IllegalArgumentException("Table option '" + MergeOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP
              + "' names '" + s + "', which is not the sequence field of any sequence group"
              + (groupKeys.isEmpty() ? " (none is defined)" : "; groups are " + groupKeys));
        }
        removingGroups.add(g);
      }
    }

    // Aggregate functions: only for protected columns.
    Map<String, String> functions = o.fieldOptions(MergeOptions.AGGREGATE_FUNCTION_SUFFIX);
    for (String f : functions.keySet()) {
      if (!protectedBy.containsKey(f)) {
        String key = MergeOptions.fieldKey(f, MergeOptions.AGGREGATE_FUNCTION_SUFFIX);
        String why = sequenceFieldOwner.containsKey(f) ? "it is the sequence field of '" + sequenceFieldOwner.get(f) + "'"
            : primaryKeys.contains(f) ? "it is part of the primary key"
            : "it belongs to no sequence group";
        throw new IllegalArgumentException("Table option '" + key + "': the partial-update engine aggregates only "
            + "columns protected by a sequence group ('fields.<seq>.sequence-group'), and column '" + f + "' is not: "
            + why);
      }
    }
    String defaultFn = o.get(MergeOptions.DEFAULT_AGGREGATE_FUNCTION);
    if (defaultFn != null) {
      FieldAggregators.checkName(MergeOptions.DEFAULT_AGGREGATE_FUNCTION, defaultFn);
    }

    PartialUpdateMergeFunction.SequenceGroup[] groups = new PartialUpdateMergeFunction.SequenceGroup[groupKeys.size()];
    for (int g = 0; g < groups.length; g++) {
      List<String> seqs = groupSequences.get(g);
      int[] seqPos = new int[seqs.size()];
      PaimonType[] seqTypes = new PaimonType[seqs.size()];
      for (int i = 0; i < seqPos.length; i++) {
        seqPos[i] = RecordOrder.indexOf(fields, seqs.get(i));
        seqTypes[i] = fields.get(seqPos[i]).type();
      }
      List<String> prot = groupProtected.get(g);
      int[] protPos = new int[prot.size()];
      FieldAggregator[] aggs = new FieldAggregator[prot.size()];
      for (int i = 0; i < protPos.length; i++) {
        protPos[i] = RecordOrder.indexOf(fields, prot.get(i));
        DataField f = fields.get(protPos[i]);
        String fn = functions.get(f.name());
        if (fn != null) {
          aggs[i] = FieldAggregators.create(MergeOptions.fieldKey(f.name(), MergeOptions.AGGREGATE_FUNCTION_SUFFIX), fn, f, o);
        } else if (defaultFn != null) {
          aggs[i] = FieldAggregators.create(MergeOptions.DEFAULT_AGGREGATE_FUNCTION, defaultFn, f, o);
        }
      }
      groups[g] = new PartialUpdateMergeFunction.SequenceGroup(groupKeys.get(g), seqPos, seqTypes, protPos, aggs,
          removingGroups.contains(g));
    }

    List<Integer> plain = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      String n = fields.get(i).name();
      if (!protectedBy.containsKey(n) && !sequenceFieldOwner.containsKey(n)) {
        plain.add(i);
      }
    }
    int[] plainPos = plain.stream().mapToInt(Integer::intValue).toArray();
    int[] keyPos = new int[primaryKeys.size()];
    for (int i = 0; i < keyPos.length; i++) keyPos[i] = RecordOrder.indexOf(fields, primaryKeys.get(i));
    return new PartialUpdateMergeFunction(fields, keyPos, plainPos, groups, ignoreDelete, removeOnDelete);
  }
}
