import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Checkbox, Flex, Form, Input, Typography } from 'antd';
import { useExpandText } from './texts';

/** A selector's options in the schema editor: one row per option (value, label), and "multiple choice". */
export function ChoiceRows({ row }: { row: number }) {
  const text = useExpandText();
  return (
    <div className="gantry-expand-choices" data-testid={`project-expand-choices-${row}`}>
      <Typography.Text strong>{text('projectExpand.ui.choices')}</Typography.Text>
      <Form.List name={[row, 'choices']}>
        {(choices, { add, remove }) => (
          <>
            {choices.map((choice) => (
              <Flex key={choice.key} gap={8} align="start" data-testid={`project-expand-choice-${row}-${choice.name}`}>
                <Form.Item name={[choice.name, 'value']}>
                  <Input
                    placeholder={text('projectExpand.ui.choiceValue')}
                    aria-label={text('projectExpand.ui.choiceValue')}
                    style={{ width: 160 }}
                    data-testid={`project-expand-choice-${row}-${choice.name}-value`}
                  />
                </Form.Item>
                <Form.Item name={[choice.name, 'label']}>
                  <Input
                    placeholder={text('projectExpand.ui.choiceLabel')}
                    aria-label={text('projectExpand.ui.choiceLabel')}
                    style={{ width: 200 }}
                    data-testid={`project-expand-choice-${row}-${choice.name}-label`}
                  />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={text('projectExpand.ui.removeChoice')}
                  onClick={() => remove(choice.name)}
                />
              </Flex>
            ))}
            <Flex gap={16} align="center" style={{ marginBottom: 16 }}>
              <Button
                size="small"
                icon={<PlusOutlined />}
                onClick={() => add({ value: '', label: '' })}
                data-testid={`project-expand-choice-add-${row}`}
              >
                {text('projectExpand.ui.addChoice')}
              </Button>
              <Form.Item name={[row, 'multiple']} valuePropName="checked" noStyle>
                <Checkbox>{text('projectExpand.ui.multiple')}</Checkbox>
              </Form.Item>
            </Flex>
          </>
        )}
      </Form.List>
    </div>
  );
}
