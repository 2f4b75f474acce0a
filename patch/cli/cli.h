/* The rebyte command-line tool: one function per command. */
#ifndef RB_CLI_H
#define RB_CLI_H

int cmd_info(int argc, char **argv);
int cmd_rewrite(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_json_patch(int argc, char **argv);
int cmd_downgrade_items(int argc, char **argv);
int cmd_resolve(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_replace(int argc, char **argv);
int cmd_render(int argc, char **argv);
#endif
